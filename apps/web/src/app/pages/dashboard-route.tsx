import { lazy, Suspense } from 'react';
import { DashboardPage } from '../../features/report/dashboard-page';

// Home's card, in its own chunk (shared with Home): features do not import each other, the app composes.
const ThisMonthCard = lazy(() => import('../../features/bills/components/this-month-card'));

/** The report composed from its features: the report itself and the bills feature's this-month card. */
export default function DashboardRoute() {
  return (
    <DashboardPage
      thisMonth={
        <Suspense fallback={null}>
          <ThisMonthCard />
        </Suspense>
      }
    />
  );
}
