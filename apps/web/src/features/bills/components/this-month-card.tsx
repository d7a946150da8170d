import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { points, won } from '../../../shared/format';
import { loadErrorText } from '../../../shared/load-error';
import { RetryButton } from '../../../shared/ui/page';
import { useBillStatus, usePayThisMonth } from '../api/bills-api';
import { monthLabel } from '../bill-rules';
import { usePrefersReducedMotion } from '../use-ticker';
import { RecentTicker, shortDate } from './recent-ticker';
import { SuspensionNotice } from './suspension-notice';
import styles from './this-month-card.module.css';

/**
 * Home: this month's BNPL amount, points earned this month and a ticker of recent items
 * (docs/rules/bills-and-grades.md#B14).
 */
export default function ThisMonthCard() {
  const summary = usePayThisMonth();
  const { refetch } = summary;
  const status = useBillStatus();
  const reducedMotion = usePrefersReducedMotion();

  if (summary.isPending) {
    return (
      <section className={styles.card} aria-busy="true" aria-label="이번 달 오굿페이">
        <p className={styles.muted}>이번 달 이용 정보를 불러오는 중...</p>
      </section>
    );
  }
  if (summary.error || !summary.data) {
    return (
      <section className={styles.card} aria-label="이번 달 오굿페이">
        <p className={styles.muted}>{loadErrorText(summary.error)}</p>
        <RetryButton onRetry={() => void refetch()} />
      </section>
    );
  }
  const data = summary.data;
  const items = data.items;
  const overdue = status.data?.statements.filter((s) => s.status === 'OVERDUE') ?? [];
  return (
    <>
      {status.data?.suspended ? (
        <SuspensionNotice
          reason={status.data.suspensionReason}
          overdueMonths={overdue.map((s) => s.month)}
          overdueAmount={status.data.overdueAmount}
          withLink
        />
      ) : null}
      <section className={styles.card} aria-labelledby="this-month-title" data-testid="this-month-card">
        <div className={styles.head}>
          <h2 id="this-month-title">{monthLabel(data.month)} 오굿페이 이용 금액</h2>
          <Link to="/payment" className={styles.more}>
            납부하기
            <ChevronRight size={16} aria-hidden />
          </Link>
        </div>
        <p className={styles.amount} data-testid="this-month-amount">
          {won(data.amount)}
        </p>
        {/* The same figure as the '청구 금액' total of 결제 내역. */}
        <p className={styles.amountNote}>포인트 사용 후 청구 금액</p>
        <p className={styles.points}>
          <span>
            이번 달 적립 <strong>{points(data.pointsThisMonth)}</strong>
          </span>
          <span>보유 {points(data.pointBalance)}</span>
        </p>
        {items.length === 0 ? (
          <p className={styles.muted}>이번 달 이용 내역이 없어요.</p>
        ) : reducedMotion ? (
          <ul className={styles.staticList} aria-label="최근 이용 내역">
            {items.slice(0, 3).map((item) => (
              <li key={item.id}>
                <span>
                  {shortDate(item.date)} {item.merchant}
                </span>
                <span>{won(item.amount)}</span>
              </li>
            ))}
          </ul>
        ) : (
          <RecentTicker items={items} />
        )}
      </section>
    </>
  );
}
