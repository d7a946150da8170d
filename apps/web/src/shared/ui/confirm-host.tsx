import { lazy, Suspense, useSyncExternalStore } from 'react';
import { pendingConfirm, subscribeConfirm } from '../confirm';

// The sheet itself loads on the first question, so it adds nothing to the first load.
const ConfirmSheet = lazy(() => import('./confirm-sheet'));

/** Mounted once by the app: shows the in-app confirm sheet while a question is pending. */
export function ConfirmHost() {
  const request = useSyncExternalStore(subscribeConfirm, pendingConfirm, () => null);
  if (!request) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmSheet key={request.id} request={request} />
    </Suspense>
  );
}
