import { onDemand } from '../../../shared/ui/on-demand';
import type { CommentPanelProps } from './comment-panel';

/** The comment panel, loaded when a viewer first opens it: the feed's first screen does not carry its code. */
export const CommentPanel = onDemand<CommentPanelProps>(() =>
  import('./comment-panel').then((m) => ({ default: m.CommentPanel })),
);
