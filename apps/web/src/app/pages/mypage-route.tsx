import { lazy, Suspense } from 'react';
import { useAutopay } from '../../features/bills/api/autopay-api';
import MypagePage from '../../features/mypage/mypage-page';
import { MypageSkeleton } from '../../shared/ui/page';

// Features do not import each other: the app puts the bills feature's autopay card and suspension notice into
// my page.
const AutopayToggle = lazy(() => import('../../features/bills/components/autopay-toggle'));
const SuspensionStatus = lazy(() => import('../../features/bills/components/suspension-status'));

/**
 * /mypage composed: the page with the suspension's reason on top and the autopay card under the linked account.
 * The card sits between two cards, so the page keeps its skeleton until the card's code and answer are both in:
 * arriving later, the card pushed the points card down (Lighthouse's mobile run read a layout shift of 0.106
 * on this page).
 */
export default function MypageRoute() {
  const autopay = useAutopay();
  return (
    <Suspense fallback={<MypageSkeleton />}>
      <MypagePage
        composing={autopay.isPending}
        notice={
          <Suspense fallback={null}>
            <SuspensionStatus />
          </Suspense>
        }
        autopay={<AutopayToggle />}
      />
    </Suspense>
  );
}
