import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { HomePage } from '../../features/home/home-page';
import { useIsLoggedIn } from '../../shared/auth-token';
import { AttendanceRoulette } from './attendance-roulette';
import { ThisMonthSlot } from './this-month-slot';

/** Home composed from its features: the page, this month's card and the attendance roulette. */
export default function HomeRoute() {
  const loggedIn = useIsLoggedIn();
  const [params, setParams] = useSearchParams();
  // Back from a login asked for by 출석체크 (`/?attendance=1`): the roulette opens, and the address is cleaned.
  const [rouletteOpen, setRouletteOpen] = useState(() => loggedIn && params.get('attendance') === '1');
  useEffect(() => {
    if (params.get('attendance') === null) return;
    if (loggedIn) setRouletteOpen(true);
    setParams({}, { replace: true });
  }, [params, loggedIn, setParams]);
  return (
    <>
      <HomePage summary={loggedIn ? <ThisMonthSlot /> : null} onAttendance={() => setRouletteOpen(true)} />
      <AttendanceRoulette open={rouletteOpen} onClose={() => setRouletteOpen(false)} />
    </>
  );
}
