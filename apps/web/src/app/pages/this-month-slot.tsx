import { lazy, Suspense } from 'react';
import { FailureBoundary } from '../../shared/ui/failure-boundary';
import { CardPlaceholder } from '../../shared/ui/page';
import { DataBoundary } from '../data-boundary';

// Its own chunk, with its API code: it must not grow the first load of `/` (performance budget). Features do
// not import each other, so the app composes the bills feature's card into Home and the report.
const ThisMonthCard = lazy(() => import('../../features/bills/components/this-month-card'));

/**
 * This month's card where Home and the report show it, with its place held while its chunk loads; a chunk that
 * does not arrive fails in the card's place (ADR 0264), and Home stays.
 */
export function ThisMonthSlot() {
  return (
    <FailureBoundary>
      <Suspense fallback={<CardPlaceholder height="var(--this-month-card-height)" label="이번 달 오굿페이" />}>
        <DataBoundary>
          <ThisMonthCard />
        </DataBoundary>
      </Suspense>
    </FailureBoundary>
  );
}
