import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { HomePage } from '../../features/home/home-page';
import { useIsLoggedIn } from '../../shared/auth-token';
import { invalidateAfter } from '../../shared/query-keys';

// Own chunks, with their API code: they must not grow the first load of `/` (performance budget).
const ThisMonthCard = lazy(() => import('../../features/bills/components/this-month-card'));
const RouletteModal = lazy(() => import('../../features/checkin/components/roulette-modal'));

/** Home composed from its features: the page, this month's card and the attendance roulette. */
export default function HomeRoute() {
  const loggedIn = useIsLoggedIn();
  const [rouletteOpen, setRouletteOpen] = useState(false);
  const queryClient = useQueryClient();
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
