import type { ReactNode } from 'react';
import styles from './detail-list.module.css';

export interface DetailRow {
  label: string;
  value: ReactNode;
  testId?: string;
}

/** Label–value rows of a payment (the receipt, the details sheet): labels left, values bold on the right. */
export function DetailList({
  rows,
  compact = false,
  className,
}: {
  rows: DetailRow[];
  /** Tighter rows (the receipt, the payment sheet's summary). */
  compact?: boolean;
  className?: string;
}) {
  return (
    <dl className={`${styles.list} ${compact ? styles.compact : ''} ${className ?? ''}`}>
      {rows.map((row) => (
        <div key={row.label}>
          <dt>{row.label}</dt>
          <dd data-testid={row.testId}>{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}
