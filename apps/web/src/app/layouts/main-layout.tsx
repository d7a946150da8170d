import { MSG } from '@ohgood/contract/messages';
import { LogIn, LogOut } from 'lucide-react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { logout as endSession, useIsLoggedIn } from '../../shared/auth-token';
import { notify } from '../../shared/notify';
import { clearQueryCache } from '../../shared/query-cache';
import buttons from '../../shared/ui/button.module.css';
import { Mascot } from '../../shared/ui/mascot';
import { BellSlot } from './bell-slot';
import { Footer, isFooterHidden } from './footer';
import styles from './main-layout.module.css';

export function MainLayout() {
  const loggedIn = useIsLoggedIn();
  const navigate = useNavigate();
  const { pathname } = useLocation();

  // Logout goes home and reloads the app; clearing the cached data does the same job and keeps the toast on screen.
  const logout = () => {
    endSession();
    clearQueryCache();
    notify(MSG.loggedOut);
    navigate('/');
  };

  return (
    <div className={styles.shell}>
      <header className={styles.header}>
        <Link to="/" className={styles.logo} aria-label="오굿페이 홈">
          <Mascot size={32} />
          <span className={styles.wordmark}>
            오굿<b>페이</b>
          </span>
        </Link>
        <BellSlot shown={loggedIn} className={`${styles.iconButton} ${styles.bell}`} />
        {loggedIn ? (
          <button
            type="button"
            className={`${buttons.icon} ${styles.iconButton}`}
            onClick={logout}
            aria-label="로그아웃"
            data-testid="logout"
          >
            <LogOut size={22} aria-hidden />
          </button>
        ) : (
          <Link
            to="/login"
            className={`${buttons.icon} ${styles.iconButton} ${styles.login}`}
            aria-label="로그인"
            data-testid="login-link"
          >
            <LogIn size={22} aria-hidden />
          </Link>
        )}
      </header>
      <main className={`${styles.main} ${isFooterHidden(pathname) ? '' : styles.withFooter}`}>
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
