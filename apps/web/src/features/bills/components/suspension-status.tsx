import { useBillStatus } from '../api/bills-api';
import { SuspensionNotice } from './suspension-notice';

/**
 * The customer's suspension, if any, in its own words (an operator's or an overdue bill's; #B10, operations.md
 * #O5), for screens outside the bills feature (/mypage). Nothing while loading or when not suspended: the
 * screen it sits in has its own loading and error states.
 */
export default function SuspensionStatus() {
  const status = useBillStatus();
  if (!status.data?.suspended) return null;
  return (
    <SuspensionNotice
      reason={status.data.suspensionReason}
      overdueMonths={status.data.statements.filter((s) => s.status === 'OVERDUE').map((s) => s.month)}
      overdueAmount={status.data.overdueAmount}
      withLink
    />
  );
}
