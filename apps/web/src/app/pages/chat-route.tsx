import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import ChatPage from '../../features/chat/pages/chat-page';
import { invalidateAfter } from '../../shared/query-keys';

// The roulette comes with its own chunk, only when the check-in card is pressed.
const RouletteModal = lazy(() => import('../../features/checkin/components/roulette-modal'));

/** The chat composed with the attendance roulette: the check-in quick menu opens the same modal as home. */
export default function ChatRoute() {
  const [rouletteOpen, setRouletteOpen] = useState(false);
  const queryClient = useQueryClient();
  return (
    <>
      <ChatPage onCheckin={() => setRouletteOpen(true)} />
      {rouletteOpen ? (
        <Suspense fallback={null}>
          <RouletteModal
            open
            onClose={() => setRouletteOpen(false)}
            onAwarded={() => void invalidateAfter(queryClient, 'attendance')}
          />
        </Suspense>
      ) : null}
    </>
  );
}
