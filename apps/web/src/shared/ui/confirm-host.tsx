import { Suspense, useSyncExternalStore } from 'react';
import { pendingConfirm, subscribeConfirm } from '../confirm';
import { lazyDialog } from './lazy-dialog';

// The sheet itself loads on the first question, so it adds nothing to the first load. A question that cannot
// be asked (the sheet's code did not arrive) is answered "no": nothing unconfirmed happens.
const ConfirmSheet = lazyDialog(
  () => import('./confirm-sheet'),
  ({ request }) => request.resolve(false),
);

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
