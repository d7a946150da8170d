import { lazy, Suspense, useState } from 'react';
import ChatPage from '../../features/chat/pages/chat-page';

// The roulette comes with its own chunk, only when the check-in card is pressed.
const RouletteModal = lazy(() => import('../../features/checkin/components/roulette-modal'));

/** The chat composed with the attendance roulette: the check-in quick menu opens the same modal as home. */
export default function ChatRoute() {
  const [rouletteOpen, setRouletteOpen] = useState(false);
  return (
    <>
      <ChatPage onCheckin={() => setRouletteOpen(true)} />
      {rouletteOpen ? (
        <Suspense fallback={null}>
          <RouletteModal open onClose={() => setRouletteOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
