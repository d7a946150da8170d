import { MSG } from '@ohgood/contract/messages';
import { useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useAuthState, wasLoggedOutByUser, wasSessionExpired } from '../shared/auth-token';
import { notify } from '../shared/notify';
import { loginPath } from '../shared/return-to';
import { SIGNED_IN_SKELETONS } from '../shared/ui/page';

/**
 * Guarded pages: '로그인 후 이용 가능합니다.' and off to /login, which brings the user back here (path and
 * query) after login. A page the user was on when logging out is simply left for home; one opened after
 * logging out asks for a login like any other.
 */
export function RequireAuth() {
  const auth = useAuthState();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const warned = useRef(false);
  const shown = useRef(false);
  useEffect(() => {
    if (auth === 'in') shown.current = true;
  }, [auth]);
  useEffect(() => {
    if (auth !== 'out' || warned.current) return;
    warned.current = true;
    if (shown.current && wasLoggedOutByUser()) {
      navigate('/', { replace: true });
      return;
    }
    // An expired session was announced by the API client already ('로그인이 만료되었어요…').
    if (!wasSessionExpired()) notify(MSG.loginRequired);
    navigate(loginPath(`${pathname}${search}`), { replace: true });
  }, [auth, navigate, pathname, search]);
  if (auth === 'in') return <Outlet />;
  const Skeleton = auth === 'checking' ? SIGNED_IN_SKELETONS[pathname] : undefined;
  return Skeleton ? <Skeleton /> : null;
}
