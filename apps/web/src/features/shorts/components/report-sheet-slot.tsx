import { lazy, Suspense } from 'react';
import type { ReportSheetProps } from './report-sheet';

const Sheet = lazy(() => import('./report-sheet'));

/** The report sheet, loaded when a viewer first opens it: the feed does not carry its code until then. */
export function ReportSheet(props: ReportSheetProps) {
  return (
    <Suspense fallback={null}>
      <Sheet {...props} />
    </Suspense>
  );
}
