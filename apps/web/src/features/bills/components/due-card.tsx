import type { StatementSummary } from '@ohgood/contract/bills';
import { CalendarClock } from 'lucide-react';
import { won } from '../../../shared/format';
import { dDay, dueDayLabel, monthLabel, paymentMonth } from '../bill-rules';
import styles from './bills.module.css';

const BADGES: Record<StatementSummary['status'], string | null> = {
  OPEN: '이용 중',
  DUE: null,
  EXTENDED: null,
  OVERDUE: '연체',
};

/** One upcoming payment: "{M}월 납부 예정 금액", due the 15th or the last day, with a D-day. */
export function DueCard({ statement, today }: { statement: StatementSummary; today: string }) {
  const payMonth = monthLabel(paymentMonth(statement.month));
  const badge =
    statement.status === 'EXTENDED'
      ? statement.extension === 'AUTO'
        ? '자동 연장'
        : '연장됨'
      : BADGES[statement.status];
  const overdue = statement.status === 'OVERDUE';
  return (
    <article className={`${styles.due} ${overdue ? styles.dueOverdue : ''}`} data-testid={`due-${statement.month}`}>
      <div className={styles.dueHead}>
        <h3>{payMonth} 납부 예정 금액</h3>
        {badge ? <span className={overdue ? styles.badgeDanger : styles.badge}>{badge}</span> : null}
      </div>
      <p className={styles.dueAmount}>{won(statement.amount)}</p>
      <p className={styles.dueMeta}>
        <CalendarClock size={16} aria-hidden />
        <span>
          납부일 {payMonth} {dueDayLabel(statement)}
        </span>
        <span className={styles.dday}>{dDay(today, statement.dueDate)}</span>
      </p>
      <p className={styles.dueSub}>
        {monthLabel(statement.month)} 이용분 {statement.count}건
      </p>
    </article>
  );
}
