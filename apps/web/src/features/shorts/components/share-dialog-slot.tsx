import { onDemand } from '../../../shared/ui/on-demand';
import type { ShareDialogProps } from './share-dialog';

/** The share dialog, loaded when a viewer first opens it: the feed does not carry its code until then. */
export const ShareDialog = onDemand<ShareDialogProps>(() =>
  import('./share-dialog').then((m) => ({ default: m.ShareDialog })),
);
