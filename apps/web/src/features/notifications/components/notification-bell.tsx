import { Bell } from 'lucide-react';
import { Link } from 'react-router';
import { useIsLoggedIn } from '../../../shared/auth-token';
import { useUnreadCount } from '../api/notifications-api';
import { useLiveNotices } from '../use-live-notices';
import styles from './notification-bell.module.css';

/** The bell of the main and shorts headers: the unread count, kept live while signed in. */
export default function NotificationBell({ className }: { className?: string }) {
  const loggedIn = useIsLoggedIn();
  const unread = useUnreadCount(loggedIn).data ?? 0;
  useLiveNotices(loggedIn);
  if (!loggedIn) return null;
  const label = unread > 0 ? `알림, 읽지 않은 알림 ${unread}개` : '알림';
  return (
    <Link to="/notifications" className={`${styles.bell} ${className ?? ''}`} aria-label={label} data-testid="bell">
      <Bell size={22} aria-hidden />
      {unread > 0 && (
        <span className={styles.badge} data-testid="notice-badge" aria-hidden>
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </Link>
  );
}
