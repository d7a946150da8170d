import { lazy, Suspense } from 'react';
import { FailureBoundary } from '../../shared/ui/failure-boundary';
import { DataBoundary } from '../data-boundary';
import styles from './bell-slot.module.css';

// Its own chunk: the bell's live stream and API code must not grow the first load of `/`.
const NotificationBell = lazy(() => import('../../features/notifications/components/notification-bell'));

/**
 * The notification bell where a header shows it (main and shorts), for a signed-in customer. Its place is held
 * while its chunk loads: arriving into no place, it pushed the shorts header's search field 52 px narrower under
 * the reader's eyes. Before the session is shown (a prerendered page, rendered for nobody), the place is there
 * too, visible only in a tab marked as holding a session (ADR 0262).
 */
export function BellSlot({ shown, className }: { shown: boolean; className?: string }) {
  const place = (whileSessionRead: boolean) => (
    <span
      className={`${styles.placeholder} ${whileSessionRead ? styles.untilSessionShown : ''} ${className ?? ''}`}
      aria-hidden
    />
  );
  if (!shown) return place(true);
  // A bell whose code did not arrive is quietly absent: the header and the page stay.
  return (
    <FailureBoundary fallback={place(false)}>
      <Suspense fallback={place(false)}>
        <DataBoundary>
          <NotificationBell className={className} />
        </DataBoundary>
      </Suspense>
    </FailureBoundary>
  );
}
