import { lazy, Suspense } from 'react';
import MypagePage from '../../features/mypage/mypage-page';

// Features do not import each other: the app puts the bills feature's autopay switch into my page.
const AutopayToggle = lazy(() => import('../../features/bills/components/autopay-toggle'));

/** /mypage composed: the page with the autopay switch under the linked account. */
export default function MypageRoute() {
  return (
    <MypagePage
      autopay={
        <Suspense fallback={null}>
          <AutopayToggle />
        </Suspense>
      }
    />
  );
}
