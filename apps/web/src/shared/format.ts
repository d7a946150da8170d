/*
 * Made on first use, not when the module loads: a page's first Intl formatter sets up ICU, 10–30 ms here
 * and four times that on Lighthouse's throttled phone, a long task of its own wherever it lands.
 */
let numberFormatter: Intl.NumberFormat | undefined;
let relativeFormatter: Intl.RelativeTimeFormat | undefined;
const numberFormat = () => (numberFormatter ??= new Intl.NumberFormat('ko-KR'));
const relativeFormat = () => (relativeFormatter ??= new Intl.RelativeTimeFormat('ko', { numeric: 'auto' }));

/**
 * A number as Intl.NumberFormat('ko-KR') writes it: '-1,234,567'. Whole numbers, which every amount of won
 * and points is, are grouped here without ICU (see above, and ADR 0106); anything else goes to Intl.
 * format.test.ts holds the two to the same output.
 */
function grouped(value: number): string {
  if (!Number.isSafeInteger(value)) return numberFormat().format(value);
  const digits = String(Math.abs(value));
  const head = digits.length % 3 || 3;
  let text = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) text += `,${digits.slice(i, i + 3)}`;
  return value < 0 || Object.is(value, -0) ? `-${text}` : text;
}

/** 12500 → '12,500원' */
export function won(amount: number): string {
  return `${grouped(amount)}원`;
}

/** 1200 → '1,200P' */
export function points(amount: number): string {
  return `${grouped(amount)}P`;
}

export function number(value: number): string {
  return grouped(value);
}

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
