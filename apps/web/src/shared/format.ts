import { points as contractPoints, won as contractWon, groupedNumber } from '@ohgood/contract/number-format';

/** 12500 → '12,500원': the contract's one number format (ICU-free for whole numbers, ADR 0106). */
export const won = contractWon;

/** 1200 → '1,200P' */
export const points = contractPoints;

export function number(value: number): string {
  return groupedNumber(value);
}

/*
 * Made on first use, not when the module loads: a page's first Intl formatter sets up ICU, 10–30 ms here
 * and four times that on Lighthouse's throttled phone, a long task of its own wherever it lands.
 */
let relativeFormatter: Intl.RelativeTimeFormat | undefined;
const relativeFormat = () => (relativeFormatter ??= new Intl.RelativeTimeFormat('ko', { numeric: 'auto' }));

/** Korean relative time: '방금 전', '3분 전', '어제', '2주 전'. */
export function relativeTime(at: Date | string, now: Date = new Date()): string {
  const seconds = Math.round((new Date(at).getTime() - now.getTime()) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return '방금 전';
  const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['minute', 60],
    ['hour', 3600],
    ['day', 86400],
    ['week', 604800],
    ['month', 2592000],
    ['year', 31536000],
  ];
  let chosen: [Intl.RelativeTimeFormatUnit, number] = units[0] as [Intl.RelativeTimeFormatUnit, number];
  for (const unit of units) if (abs >= unit[1]) chosen = unit;
  return relativeFormat().format(Math.trunc(seconds / chosen[1]), chosen[0]);
}
