import { lazy, Suspense } from 'react';
import { DataBoundary } from '../data-boundary';
import styles from './bell-slot.module.css';

// Its own chunk: the bell's live stream and API code must not grow the first load of `/`.
const NotificationBell = lazy(() => import('../../features/notifications/components/notification-bell'));

/**
 * The notification bell where a header shows it (main and shorts). Its place is held while its chunk loads:
 * arriving into no place, it pushed the shorts header's search field 52 px narrower under the reader's eyes.
 */
export function BellSlot({ className }: { className?: string }) {
  const place = <span className={`${styles.placeholder} ${className ?? ''}`} aria-hidden />;
  return (
    <Suspense fallback={place}>
      <DataBoundary>
        <NotificationBell className={className} />
      </DataBoundary>
    </Suspense>
  );
}
