import { onDemand } from '../../../shared/ui/on-demand';

/** The report sheet, loaded when a viewer first opens it: the feed does not carry its code until then. */
export const ReportSheet = onDemand(() => import('./report-sheet'));
