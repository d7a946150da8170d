import type { ReactNode } from 'react';
import styles from './detail-list.module.css';

export interface DetailRow {
  label: string;
  value: ReactNode;
  testId?: string;
}

/** Label–value rows of a payment (the receipt, the details sheet): labels left, values bold on the right. */
export function DetailList({ rows, className }: { rows: DetailRow[]; className?: string }) {
  return (
    <dl className={`${styles.list} ${className ?? ''}`}>
      {rows.map((row) => (
        <div key={row.label}>
          <dt>{row.label}</dt>
          <dd data-testid={row.testId}>{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}
