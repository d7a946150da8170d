import { lazy, Suspense, useState } from 'react';
import { HomePage } from '../../features/home/home-page';
import { useIsLoggedIn } from '../../shared/auth-token';
import { ThisMonthSlot } from './this-month-slot';

// Its own chunk, with its API code: it must not grow the first load of `/` (performance budget).
const RouletteModal = lazy(() => import('../../features/checkin/components/roulette-modal'));

/** Home composed from its features: the page, this month's card and the attendance roulette. */
export default function HomeRoute() {
  const loggedIn = useIsLoggedIn();
  const [rouletteOpen, setRouletteOpen] = useState(false);
  // Bumped when the roulette credits points, so the card shows this month's points again.
  const [awards, setAwards] = useState(0);
  return (
    <>
      <HomePage
        summary={loggedIn ? <ThisMonthSlot refreshSignal={awards} /> : null}
        onAttendance={() => setRouletteOpen(true)}
      />
      {rouletteOpen ? (
        <Suspense fallback={null}>
          <RouletteModal open onClose={() => setRouletteOpen(false)} onAwarded={() => setAwards((n) => n + 1)} />
        </Suspense>
      ) : null}
    </>
  );
}
