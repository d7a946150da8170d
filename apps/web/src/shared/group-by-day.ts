import { kstDate } from '@ohgood/contract/kst';

export interface DayGroup<T> {
  day: string;
  label: string;
  items: T[];
}

const WEEKDAYS = ['일', '월', '화', '수', '목', '금', '토'];

/** '2026-11-22' → '11월 22일 (일)' */
export function dayLabel(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const weekday = WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()];
  return `${m}월 ${d}일 (${weekday})`;
}

/** Groups items (already newest first) by their KST calendar day, keeping order. */
export function groupByDay<T>(items: T[], dateOf: (item: T) => string): DayGroup<T>[] {
  const groups: DayGroup<T>[] = [];
  for (const item of items) {
    const day = kstDate(dateOf(item));
    const last = groups[groups.length - 1];
    if (last && last.day === day) last.items.push(item);
    else groups.push({ day, label: dayLabel(day), items: [item] });
  }
  return groups;
}
