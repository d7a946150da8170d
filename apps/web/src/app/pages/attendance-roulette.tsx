import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { invalidateAfter } from '../../shared/query-keys';

// The roulette comes with its own chunk, only when it is opened.
const RouletteModal = lazy(() => import('../../features/checkin/components/roulette-modal'));

/**
 * The attendance roulette as the app composes it (home, chat): once the wheel has landed and the prize is
 * shown, every view of the points and today's check-in is refreshed.
 */
export function AttendanceRoulette({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <RouletteModal open onClose={onClose} onAwarded={() => void invalidateAfter(queryClient, 'attendance')} />
    </Suspense>
  );
}
