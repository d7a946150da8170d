import { addMonths } from '@ohgood/contract/kst';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import styles from './month-nav.module.css';

export function monthLabel(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${y}년 ${m}월`;
}

/** Previous/next month buttons around the month's name; never moves past `max`. */
export function MonthNav({ month, max, onChange }: { month: string; max: string; onChange: (month: string) => void }) {
  return (
    <div className={styles.nav}>
      <button type="button" onClick={() => onChange(addMonths(month, -1))} aria-label="이전 달">
        <ChevronLeft size={22} aria-hidden />
      </button>
      <p aria-live="polite">{monthLabel(month)}</p>
      <button type="button" onClick={() => onChange(addMonths(month, 1))} aria-label="다음 달" disabled={month >= max}>
        <ChevronRight size={22} aria-hidden />
      </button>
    </div>
  );
}
