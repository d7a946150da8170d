import { useState } from 'react';
import ChatPage from '../../features/chat/pages/chat-page';
import { AttendanceRoulette } from './attendance-roulette';

/** The chat composed with the attendance roulette: the check-in quick menu opens the same modal as home. */
export default function ChatRoute() {
  const [rouletteOpen, setRouletteOpen] = useState(false);
  return (
    <>
      <ChatPage onCheckin={() => setRouletteOpen(true)} />
      <AttendanceRoulette open={rouletteOpen} onClose={() => setRouletteOpen(false)} />
    </>
  );
}
