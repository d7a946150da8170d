import { lazy, Suspense } from 'react';
import { DataBoundary } from '../data-boundary';

// Its own chunk: the bell's live stream and API code must not grow the first load of `/`.
const NotificationBell = lazy(() => import('../../features/notifications/components/notification-bell'));

/** The notification bell where a header shows it (main and shorts), once its chunk has loaded. */
export function BellSlot({ className }: { className?: string }) {
  return (
    <Suspense fallback={null}>
      <DataBoundary>
        <NotificationBell className={className} />
      </DataBoundary>
    </Suspense>
  );
}
