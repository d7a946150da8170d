import { MSG } from '@ohgood/contract/messages';
import { useEffect, useRef } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { useIsLoggedIn } from '../shared/auth-token';
import { notify } from '../shared/notify';

/** Guarded pages: '로그인 후 이용 가능합니다.' and off to /login (spec §6). */
export function RequireAuth() {
  const loggedIn = useIsLoggedIn();
  const navigate = useNavigate();
  const warned = useRef(false);
  useEffect(() => {
    if (loggedIn || warned.current) return;
    warned.current = true;
    notify(MSG.loginRequired);
    navigate('/login', { replace: true });
  }, [loggedIn, navigate]);
  return loggedIn ? <Outlet /> : null;
}
