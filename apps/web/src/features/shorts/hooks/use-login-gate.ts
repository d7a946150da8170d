import { MSG } from '@ohgood/contract/messages';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useIsLoggedIn } from '../../../shared/auth-token';
import { notify } from '../../../shared/notify';
import { currentPath, loginPath } from '../../../shared/return-to';

/** Login-required actions alert and go to /login when logged out. Returns true when allowed. */
export function useLoginGate(): { loggedIn: boolean; gate: () => boolean } {
  const loggedIn = useIsLoggedIn();
  const navigate = useNavigate();
  const gate = useCallback(() => {
    if (loggedIn) return true;
    notify(MSG.loginRequired);
    navigate(loginPath(currentPath()));
    return false;
  }, [loggedIn, navigate]);
  return { loggedIn, gate };
}
