import type { QueryClient } from '@tanstack/react-query';
import ThisMonthCard from '../../features/bills/components/this-month-card';
import { scoreQuery } from '../../features/report/api/report-api';
import { DashboardPage } from '../../features/report/dashboard-page';

/** What the page's first screen shows: the score (the cards below it ask for theirs as they mount). */
export function startFirstScreenRequests(client: QueryClient): void {
  void client.prefetchQuery(scoreQuery);
}

/**
 * The report composed from its features: the report itself and the bills feature's this-month card. The
 * card comes with the page's own chunks here (Home loads it lazily, see ThisMonthSlot): the page's HTML
 * then preloads it with the rest, and when the page mounts it below the fold (in an idle moment) it needs
 * no Suspense round of its own.
 */
export default function DashboardRoute() {
  return <DashboardPage thisMonth={<ThisMonthCard />} />;
}
