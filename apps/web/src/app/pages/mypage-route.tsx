import { lazy, Suspense } from 'react';
import MypagePage from '../../features/mypage/mypage-page';

// Features do not import each other: the app puts the bills feature's autopay card and suspension notice into
// my page.
const AutopayToggle = lazy(() => import('../../features/bills/components/autopay-toggle'));
const SuspensionStatus = lazy(() => import('../../features/bills/components/suspension-status'));

/** /mypage composed: the page with the suspension's reason on top and the autopay card under the linked account. */
export default function MypageRoute() {
  return (
    <MypagePage
      notice={
        <Suspense fallback={null}>
          <SuspensionStatus />
        </Suspense>
      }
      autopay={
        <Suspense fallback={null}>
          <AutopayToggle />
        </Suspense>
      }
    />
  );
}
