import type { SpendingAnalysis } from '@ohgood/contract/report';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { won } from '../../../shared/format';
import styles from '../report.module.css';
import { barHeights, chartAmount, monthLong, monthShort } from '../report-format';

/** Bar area height in SVG units; labels sit above and below it in HTML. */
const BAR_H = 100;

/** Which sides of a sideways-scrolling row have bars out of view. */
interface Overflow {
  start: boolean;
  end: boolean;
}

/** A bar is never narrower than a touch target, nor than its amount ('29.9만원') with a little air. */
const MIN_BAR = 44;
const LABEL_AIR = 4;

/**
 * Sizes the bars of a row too long for its box so that a whole number of them fills it exactly: at either
 * end, and wherever a swipe comes to rest (the row snaps to bars), no bar and so no label is cut at an edge.
 * A row that fits keeps its flexible bars (`--bar-width` unset).
 */
function fitBars(row: HTMLElement): void {
  const bars = [...row.querySelectorAll<HTMLElement>('[data-month]')];
  const gap = Number.parseFloat(getComputedStyle(row).columnGap) || 0;
  const labels = bars.map((bar) => (bar.firstElementChild as HTMLElement | null)?.scrollWidth ?? 0);
  const least = Math.max(MIN_BAR, ...labels.map((width) => width + LABEL_AIR));
  const perView = Math.max(1, Math.floor((row.clientWidth + gap) / (least + gap)));
  if (bars.length <= perView) row.style.removeProperty('--bar-width');
  else row.style.setProperty('--bar-width', `${(row.clientWidth - (perView - 1) * gap) / perView}px`);
}

/**
 * A long window scrolls sideways and opens on the selected month (at first the current one, the last):
 * after the browser has laid the bars out (the next frame) they are fitted to the box (fitBars) and the
 * box is scrolled so that bar ends at its right edge. Answers which sides still hold bars out of view, read
 * then and on every scroll or resize: those sides fade, so the row shows that it scrolls.
 */
function useSelectedBarInView(container: RefObject<HTMLElement | null>, selected: string, months: string[]) {
  const [overflow, setOverflow] = useState<Overflow>({ start: false, end: false });
  const measure = useCallback(() => {
    const el = container.current;
    if (!el) return;
    const start = el.scrollLeft > 1;
    const end = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setOverflow((now) => (now.start === start && now.end === end ? now : { start, end }));
  }, [container]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new window (months) lays out new bars to scroll to
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      const el = container.current;
      if (!el) return;
      fitBars(el);
      const bar = el.querySelector<HTMLElement>(`[data-month="${selected}"]`);
      if (bar) {
        // The bars' box is positioned (CSS), so a bar's offsetLeft is measured from it.
        const left = bar.offsetLeft;
        const right = left + bar.offsetWidth;
        if (right > el.scrollLeft + el.clientWidth) el.scrollLeft = right - el.clientWidth;
        else if (left < el.scrollLeft) el.scrollLeft = left;
      }
      measure();
    });
    return () => cancelAnimationFrame(frame);
  }, [container, selected, months, measure]);
  useEffect(() => {
    const el = container.current;
    if (!el) return;
    el.addEventListener('scroll', measure, { passive: true });
    const resize =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => {
            fitBars(el);
            measure();
          });
    resize?.observe(el);
    return () => {
      el.removeEventListener('scroll', measure);
      resize?.disconnect();
    };
  }, [container, measure]);
  return overflow;
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
  const container = useRef<HTMLDivElement>(null);
  const overflow = useSelectedBarInView(container, selected, analysis.months);
  const totals = analysis.months.map((month) => analysis.monthly[month]?.totalSpend ?? 0);
  const heights = barHeights(totals);
  return (
    // The row scrolls inside the fieldset: a fieldset's own scrolling box ignores scroll snapping.
    <fieldset className={styles.barGroup}>
      <legend className="visually-hidden">월별 소비: 막대를 누르면 그 달의 소비를 봅니다</legend>
      <div
        className={styles.bars}
        ref={container}
        data-more-before={overflow.start || undefined}
        data-more-after={overflow.end || undefined}
        data-testid="monthly-bars"
      >
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
      </div>
    </fieldset>
  );
}
