import { lazy, Suspense, useState } from 'react';
import { HomePage } from '../../features/home/home-page';
import { useIsLoggedIn } from '../../shared/auth-token';
import { AttendanceRoulette } from './attendance-roulette';

// Own chunk, with its API code: it must not grow the first load of `/` (performance budget).
const ThisMonthCard = lazy(() => import('../../features/bills/components/this-month-card'));

/** Home composed from its features: the page, this month's card and the attendance roulette. */
export default function HomeRoute() {
  const loggedIn = useIsLoggedIn();
  const [rouletteOpen, setRouletteOpen] = useState(false);
  return (
    <>
      <HomePage
        summary={
          loggedIn ? (
            <Suspense fallback={null}>
              <ThisMonthCard />
            </Suspense>
          ) : null
        }
        onAttendance={() => setRouletteOpen(true)}
      />
      <AttendanceRoulette open={rouletteOpen} onClose={() => setRouletteOpen(false)} />
    </>
  );
}
