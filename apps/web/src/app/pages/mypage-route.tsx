import { type ComponentType, lazy, Suspense, useEffect, useState } from 'react';
import { useAutopayAnswered } from '../../features/bills/api/autopay-api';
import MypagePage from '../../features/mypage/mypage-page';

// Features do not import each other: the app puts the bills feature's autopay card and suspension notice into
// my page.
const loadAutopayCard = () => import('../../features/bills/components/autopay-toggle');
const SuspensionStatus = lazy(() => import('../../features/bills/components/suspension-status'));

/**
 * The autopay card's component once its chunk is in, else null; the chunk is asked for when the route mounts,
 * beside the page's requests. Not `lazy`: a lazy card is first asked for when the page renders with its data,
 * and then suspends that render: the page was rendered, thrown away for the skeleton and rendered again once
 * the chunk came, one request after the answers.
 */
function useAutopayCard(): ComponentType | null {
  const [card, setCard] = useState<{ Card: ComponentType } | { error: unknown } | null>(null);
  useEffect(() => {
    let mounted = true;
    loadAutopayCard().then(
      (module) => mounted && setCard({ Card: module.default }),
      (error: unknown) => mounted && setCard({ error }),
    );
    return () => {
      mounted = false;
    };
  }, []);
  // A chunk that fails to load goes to the route's error boundary, as a lazy component's would.
  if (card && 'error' in card) throw card.error;
  return card?.Card ?? null;
}

/**
 * /mypage composed: the page with the suspension's reason on top and the autopay card under the linked account.
 * The card sits between two cards, so the page keeps its skeleton until the card's code and answer are both in:
 * arriving later, the card pushed the points card down (Lighthouse's mobile run read a layout shift of 0.106
 * on this page).
 */
export default function MypageRoute() {
  const autopayAnswered = useAutopayAnswered();
  const AutopayCard = useAutopayCard();
  return (
    <MypagePage
      composing={!(autopayAnswered && AutopayCard)}
      notice={
        <Suspense fallback={null}>
          <SuspensionStatus />
        </Suspense>
      }
      autopay={AutopayCard ? <AutopayCard /> : null}
    />
  );
}
