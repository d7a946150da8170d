import type { SpendingAnalysis } from '@ohgood/contract/report';
import { type RefObject, useEffect, useRef } from 'react';
import { won } from '../../../shared/format';
import styles from '../report.module.css';
import { barHeights, chartAmount, monthLong, monthShort } from '../report-format';

/** Bar area height in SVG units; labels sit above and below it in HTML. */
const BAR_H = 100;

/**
 * A long window scrolls sideways: keeps the selected month (at first the current one, last) in view. An
 * IntersectionObserver measures it once the browser has laid the bars out anyway; reading offsetLeft
 * here instead forced a layout of the whole page inside the task that rendered the card.
 */
function useSelectedBarInView(container: RefObject<HTMLElement | null>, selected: string, months: string[]) {
  useEffect(() => {
    const el = container.current;
    const bar = months.includes(selected) ? el?.querySelector(`[data-month="${selected}"]`) : null;
    if (!el || !bar || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      ([entry]) => {
        const view = entry?.rootBounds;
        if (!entry || !view) return;
        observer.disconnect();
        const { left, right } = entry.boundingClientRect;
        if (right > view.right) el.scrollBy({ left: right - view.right });
        else if (left < view.left) el.scrollBy({ left: left - view.left });
      },
      { root: el, threshold: 1 },
    );
    observer.observe(bar);
    return () => observer.disconnect();
  }, [container, selected, months]);
}

/** One button per month: its bar (SVG), its amount in 만원/천원 and its name. Tapping selects the month. */
export function MonthlyBars({
  analysis,
  selected,
  onSelect,
}: {
  analysis: SpendingAnalysis;
  selected: string;
  onSelect: (month: string) => void;
}) {
  const container = useRef<HTMLFieldSetElement>(null);
  useSelectedBarInView(container, selected, analysis.months);
  const totals = analysis.months.map((month) => analysis.monthly[month]?.totalSpend ?? 0);
  const heights = barHeights(totals);
  return (
    <fieldset className={styles.bars} ref={container}>
      <legend className="visually-hidden">월별 소비: 막대를 누르면 그 달의 소비를 봅니다</legend>
      {analysis.months.map((month, index) => {
        const active = month === selected;
        const height = heights[index] ?? 0;
        return (
          <button
            key={month}
            type="button"
            className={active ? styles.barActive : styles.bar}
            aria-pressed={active}
            aria-label={`${monthLong(month)} 소비 ${won(totals[index] ?? 0)}`}
            onClick={() => onSelect(month)}
            data-month={month}
            data-testid={`bar-${month}`}
          >
            <span className={styles.barAmount} aria-hidden>
              {chartAmount(totals[index] ?? 0)}
            </span>
            <svg className={styles.barSvg} viewBox={`0 0 24 ${BAR_H}`} preserveAspectRatio="none" aria-hidden>
              <rect x="0" y="0" width="24" height={BAR_H} rx="6" className={styles.barTrack} />
              {height > 0 ? (
                <rect
                  x="0"
                  y={BAR_H - height}
                  width="24"
                  height={height}
                  rx="6"
                  className={active ? styles.barFillActive : styles.barFill}
                />
              ) : null}
            </svg>
            <span className={styles.barMonth} aria-hidden>
              {monthShort(month)}
            </span>
          </button>
        );
      })}
    </fieldset>
  );
}
