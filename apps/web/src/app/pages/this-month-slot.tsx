import { lazy, Suspense } from 'react';
import { CardPlaceholder } from '../../shared/ui/page';

// Its own chunk, with its API code: it must not grow the first load of `/` (performance budget). Features do
// not import each other, so the app composes the bills feature's card into Home and the report.
const ThisMonthCard = lazy(() => import('../../features/bills/components/this-month-card'));

/** The card's height at 390 px; its CSS holds the same while its data loads, so nothing below jumps. */
const THIS_MONTH_CARD_HEIGHT = 233;

/** This month's card where Home and the report show it, with its place held while its chunk loads. */
export function ThisMonthSlot() {
  return (
    <Suspense fallback={<CardPlaceholder height={THIS_MONTH_CARD_HEIGHT} label="이번 달 오굿페이" />}>
      <ThisMonthCard />
    </Suspense>
  );
}
