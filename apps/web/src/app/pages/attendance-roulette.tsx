import { Suspense } from 'react';
import { lazyDialog } from '../../shared/ui/lazy-dialog';
import { DataBoundary } from '../data-boundary';

// The roulette comes with its own chunk, only when it is opened, and with it the data provider. If its code
// does not arrive, it closes again (after a toast that says why).
const AwardingRoulette = lazyDialog(
  () => import('./awarding-roulette'),
  ({ onClose }) => onClose(),
);

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
