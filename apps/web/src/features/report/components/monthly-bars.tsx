import type { SpendingAnalysis } from '@ohgood/contract/report';
import { type RefObject, useEffect, useRef } from 'react';
import { won } from '../../../shared/format';
import styles from '../report.module.css';
import { barHeights, chartAmount, monthLong, monthShort } from '../report-format';

/** Bar area height in SVG units; labels sit above and below it in HTML. */
const BAR_H = 100;

/**
 * A long window scrolls sideways and opens on the selected month (at first the current one, the last):
 * the container is scrolled so that bar ends at its right edge, after the browser has laid the bars out
 * (the next frame), so reading their geometry costs no extra layout in the task that rendered the card.
 */
function useSelectedBarInView(container: RefObject<HTMLElement | null>, selected: string, months: string[]) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new window (months) lays out new bars to scroll to
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      const el = container.current;
      const bar = el?.querySelector<HTMLElement>(`[data-month="${selected}"]`);
      if (!el || !bar) return;
      // The bars' box is positioned (CSS), so a bar's offsetLeft is measured from it.
      const left = bar.offsetLeft;
      const right = left + bar.offsetWidth;
      if (right > el.scrollLeft + el.clientWidth) el.scrollLeft = right - el.clientWidth;
      else if (left < el.scrollLeft) el.scrollLeft = left;
    });
    return () => cancelAnimationFrame(frame);
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
