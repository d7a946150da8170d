import { useQueryClient } from '@tanstack/react-query';
import RouletteModal from '../../features/checkin/components/roulette-modal';
import { invalidateAfter } from '../../shared/query-keys';

/**
 * The open roulette: once the wheel has landed and the prize is shown, every view of the points and today's
 * check-in is refreshed.
 */
export default function AwardingRoulette({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  return <RouletteModal open onClose={onClose} onAwarded={() => void invalidateAfter(queryClient, 'attendance')} />;
}
