import ThisMonthCard from '../../features/bills/components/this-month-card';
import { DashboardPage } from '../../features/report/dashboard-page';

/**
 * The report composed from its features: the report itself and the bills feature's this-month card. The
 * card comes with the page's own chunks here (Home loads it lazily, see ThisMonthSlot): the page's HTML
 * then preloads it with the rest, and when the page mounts it below the fold (in an idle moment) it needs
 * no Suspense round of its own.
 */
export default function DashboardRoute() {
  return <DashboardPage thisMonth={<ThisMonthCard />} />;
}
