import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { autopayQuery, useAutopayAnswered } from '../../features/bills/api/autopay-api';
import { billStatusQuery } from '../../features/bills/api/bills-api';
import AutopayToggle from '../../features/bills/components/autopay-toggle';
import { mypageQuery } from '../../features/mypage/api/mypage-api';
import MypagePage from '../../features/mypage/mypage-page';

// Features do not import each other: the app puts the bills feature's autopay card and suspension notice into
// my page. The card is part of the first screen (the page keeps its skeleton until it can show it), so its code
// comes with the page's: the page's HTML names it, where loaded apart it cost two round trips after the page's
// answers. The notice shows only for a suspended customer.
const SuspensionStatus = lazy(() => import('../../features/bills/components/suspension-status'));

/** What the page waits for before leaving its skeleton (app/page-table.ts); the suspension notice's status too. */
export function startFirstScreenRequests(client: QueryClient): void {
  void client.prefetchQuery(mypageQuery);
  void client.prefetchQuery(autopayQuery);
  void client.prefetchQuery(billStatusQuery);
}

/**
 * /mypage composed: the page with the suspension's reason on top and the autopay card under the linked account.
 * The card sits between two cards, so the page keeps its skeleton until the card's answer is in: arriving
 * later, the card pushed the points card down (Lighthouse's mobile run read a layout shift of 0.106
 * on this page).
 */
export default function MypageRoute() {
  const autopayAnswered = useAutopayAnswered();
  return (
    <MypagePage
      composing={!autopayAnswered}
      notice={
        <Suspense fallback={null}>
          <SuspensionStatus />
        </Suspense>
      }
      autopay={<AutopayToggle />}
    />
  );
}
