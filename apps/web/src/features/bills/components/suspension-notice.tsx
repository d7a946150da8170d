import { TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { won } from '../../../shared/format';
import { monthLabel } from '../bill-rules';
import styles from './bills.module.css';

export interface SuspensionNoticeProps {
  /** Statement months ('YYYY-MM') that are overdue. */
  overdueMonths: string[];
  overdueAmount: number;
  /** On home, a link to the payment page. */
  withLink?: boolean;
}

/** Why payments are suspended and what to repay to lift it (docs/rules/bills-and-grades.md#B10, #B11). */
export function SuspensionNotice({ overdueMonths, overdueAmount, withLink }: SuspensionNoticeProps) {
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
