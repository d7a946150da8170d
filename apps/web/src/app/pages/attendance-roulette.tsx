import { lazy, Suspense } from 'react';
import { DataBoundary } from '../data-boundary';

// The roulette comes with its own chunk, only when it is opened, and with it the data provider.
const AwardingRoulette = lazy(() => import('./awarding-roulette'));

/** The attendance roulette as the app composes it (home, chat), loaded when it is opened. */
export function AttendanceRoulette({ open, onClose }: { open: boolean; onClose: () => void }) {
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <DataBoundary>
        <AwardingRoulette onClose={onClose} />
      </DataBoundary>
    </Suspense>
  );
}
