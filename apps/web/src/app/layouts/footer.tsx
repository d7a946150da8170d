import { Clapperboard, House, UserRound } from 'lucide-react';
import { NavLink, useLocation } from 'react-router';
import { TOAST_CLEARANCE } from '../../shared/ui/toaster';
import styles from './footer.module.css';

const ITEMS = [
  { to: '/shorts/feeds', label: 'Shorts', icon: Clapperboard, match: (p: string) => p.startsWith('/shorts') },
  { to: '/', label: 'Home', icon: House, match: (p: string) => p === '/' },
  { to: '/mypage', label: 'Mypage', icon: UserRound, match: (p: string) => p.startsWith('/mypage') },
] as const;

/** Paths where the footer is hidden: the PIN/QR payment, sign-up and upload screens. */
const HIDDEN_ON = new Set(['/qrpin', '/register', '/shorts/upload']);

export function isFooterHidden(pathname: string): boolean {
  return HIDDEN_ON.has(pathname.replace(/\/$/, '') || '/');
}

/** Dark on any path containing 'shorts', to match the shorts theme. */
export function isFooterDark(pathname: string): boolean {
  return pathname.includes('shorts');
}

export function Footer() {
  const { pathname } = useLocation();
  if (isFooterHidden(pathname)) return null;
  return (
    <nav
      className={`${styles.footer} ${isFooterDark(pathname) ? styles.dark : ''}`}
      aria-label="주요 메뉴"
      data-theme={isFooterDark(pathname) ? 'dark' : 'light'}
      data-testid="footer"
      {...TOAST_CLEARANCE}
    >
      {ITEMS.map(({ to, label, icon: Icon, match }) => {
        const current = match(pathname);
        return (
          <NavLink
            key={to}
            to={to}
            className={`${styles.item} ${current ? styles.current : ''}`}
            aria-current={current ? 'page' : undefined}
          >
            <Icon size={22} aria-hidden />
            <span>{label}</span>
          </NavLink>
        );
      })}
    </nav>
  );
}
