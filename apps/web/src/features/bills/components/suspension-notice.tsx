import type { SuspensionReason } from '@ohgood/contract/bill-rules';
import { TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { won } from '../../../shared/format';
import { monthLabel } from '../bill-rules';
import styles from './bills.module.css';

export interface SuspensionNoticeProps {
  /** Why: an overdue bill, or an operator (whose suspension says nothing of a bill). */
  reason: SuspensionReason | null;
  /** Statement months ('YYYY-MM') that are overdue. */
  overdueMonths: string[];
  overdueAmount: number;
  /** On home, a link to the payment page. */
  withLink?: boolean;
}

/**
 * Why payments are suspended and what lifts it (docs/rules/bills-and-grades.md#B10, #B11): repaying the overdue
 * amount, or, for an operator's suspension, the customer centre.
 */
export function SuspensionNotice({ reason, overdueMonths, overdueAmount, withLink }: SuspensionNoticeProps) {
  if (reason === 'STAFF') {
    return (
      <section className={styles.suspended} role="alert" aria-labelledby="suspended-title">
        <TriangleAlert size={22} aria-hidden className={styles.suspendedIcon} />
        <div>
          <h2 id="suspended-title">결제가 잠시 정지되었어요</h2>
          <p>운영 정책에 따라 새 결제가 정지되었어요. 자세한 내용은 고객센터로 문의해 주세요.</p>
        </div>
      </section>
    );
  }
  return (
    <section className={styles.suspended} role="alert" aria-labelledby="suspended-title">
      <TriangleAlert size={22} aria-hidden className={styles.suspendedIcon} />
      <div>
        <h2 id="suspended-title">결제가 정지되었어요</h2>
        <p>
          {overdueMonths.map(monthLabel).join(', ')} 이용분의 납부 기한이 지나 새 결제가 정지되었어요.{' '}
          <strong>{won(overdueAmount)}</strong>을 납부하면 바로 해제돼요.
        </p>
        {withLink ? (
          <Link to="/payment" className={styles.suspendedLink}>
            연체 금액 납부하기
          </Link>
        ) : null}
      </div>
    </section>
  );
}
