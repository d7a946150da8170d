import { DashboardPage } from '../../features/report/dashboard-page';
import { ThisMonthSlot } from './this-month-slot';

/** The report composed from its features: the report itself and the bills feature's this-month card. */
export default function DashboardRoute() {
  return <DashboardPage thisMonth={<ThisMonthSlot />} />;
}
