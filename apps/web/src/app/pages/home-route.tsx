import { useState } from 'react';
import { HomePage } from '../../features/home/home-page';
import { useIsLoggedIn } from '../../shared/auth-token';
import { AttendanceRoulette } from './attendance-roulette';
import { ThisMonthSlot } from './this-month-slot';

/** Home composed from its features: the page, this month's card and the attendance roulette. */
export default function HomeRoute() {
  const loggedIn = useIsLoggedIn();
  const [rouletteOpen, setRouletteOpen] = useState(false);
  return (
    <>
      <HomePage summary={loggedIn ? <ThisMonthSlot /> : null} onAttendance={() => setRouletteOpen(true)} />
      <AttendanceRoulette open={rouletteOpen} onClose={() => setRouletteOpen(false)} />
    </>
  );
}
