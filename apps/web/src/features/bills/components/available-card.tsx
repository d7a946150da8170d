import { limitChangedText } from '@ohgood/contract/bill-messages';
import type { LimitChange } from '@ohgood/contract/bills';
import { type GradeName, gradeByName } from '@ohgood/contract/grades';
import { won } from '../../../shared/format';
import styles from './bills.module.css';

export interface AvailableCardProps {
  balance: number;
  limitPrice: number;
  gradeName: GradeName;
  /** A recent change of the monthly limit by risk that still holds (the 결제·청구 notice's sentence). */
  limitChange?: LimitChange | null;
}

/** '2026-11-28T10:00:00+09:00' (KST) → '11월 28일'. */
const dayOf = (at: string) => `${Number(at.slice(5, 7))}월 ${Number(at.slice(8, 10))}일`;

/** This month's available amount: the balance of the limit, with a bar (docs/rules/bills-and-grades.md#B3). */
export function AvailableCard({ balance, limitPrice, gradeName, limitChange = null }: AvailableCardProps) {
  const ratio = limitPrice > 0 ? Math.min(1, Math.max(0, balance / limitPrice)) : 0;
  return (
    <section className={styles.available} aria-labelledby="available-title">
      <h2 id="available-title" className={styles.cardLabel}>
        사용 가능 금액
      </h2>
      <p className={styles.availableAmount} data-testid="available-amount">
        {won(balance)}
      </p>
      <meter className="visually-hidden" min={0} max={limitPrice} value={balance} aria-label="남은 한도">
        {`${won(limitPrice)} 중 ${won(balance)} 남음`}
      </meter>
      <div className={styles.bar} aria-hidden>
        <span className={styles.barFill} style={{ width: `${ratio * 100}%` }} />
      </div>
      <p className={styles.availableMeta}>
        <span>{gradeByName(gradeName).label} 등급</span>
        <span>월 한도 {won(limitPrice)}</span>
      </p>
      {limitChange ? (
        <p className={styles.limitChange} data-testid="limit-change">
          <span>{limitChangedText(limitChange.from, limitChange.to)}</span>
          <time dateTime={limitChange.at} className={styles.limitChangeDate}>
            {dayOf(limitChange.at)}
          </time>
        </p>
      ) : null}
    </section>
  );
}
