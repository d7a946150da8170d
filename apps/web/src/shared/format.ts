import { points as contractPoints, won as contractWon, groupedNumber } from '@ohgood/contract/number-format';

/** 12500 → '12,500원': the contract's one number format (ICU-free for whole numbers, ADR 0106). */
export const won = contractWon;

/** 1200 → '1,200P' */
export const points = contractPoints;

export function number(value: number): string {
  return groupedNumber(value);
}

type RelativeUnit = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';

/** Seconds in each unit, smallest first: the largest one that fits the distance is the one said. */
const RELATIVE_UNITS: Array<[RelativeUnit, number]> = [
  ['minute', 60],
  ['hour', 3600],
  ['day', 86400],
  ['week', 604800],
  ['month', 2592000],
  ['year', 31536000],
];
const UNIT_WORDS: Record<RelativeUnit, string> = {
  minute: '분',
  hour: '시간',
  day: '일',
  week: '주',
  month: '개월',
  year: '년',
};
/** The days, weeks, months and years Korean names rather than counts ('어제', not '1일 전'). */
const NAMED: Partial<Record<`${RelativeUnit}:${number}`, string>> = {
  'day:-2': '그저께',
  'day:-1': '어제',
  'day:1': '내일',
  'day:2': '모레',
  'week:-1': '지난주',
  'week:1': '다음 주',
  'month:-1': '지난달',
  'month:1': '다음 달',
  'year:-1': '작년',
  'year:1': '내년',
};

/**
 * `Intl.RelativeTimeFormat('ko', { numeric: 'auto' })`'s words for a count of whole units (never 0), written
 * without ICU: the feed's first slide was the page's only Intl user, and setting ICU up for its '3일 전' was
 * a quarter of that render (about 100 ms on the throttled phone, ADR 0106 for numbers). format.test.ts holds
 * the two to one output.
 */
export function relativeWords(count: number, unit: RelativeUnit): string {
  return NAMED[`${unit}:${count}`] ?? `${groupedNumber(Math.abs(count))}${UNIT_WORDS[unit]} ${count < 0 ? '전' : '후'}`;
}

/** Korean relative time: '방금 전', '3분 전', '어제', '2주 전'. */
export function relativeTime(at: Date | string, now: Date = new Date()): string {
  const seconds = Math.round((new Date(at).getTime() - now.getTime()) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return '방금 전';
  let chosen = RELATIVE_UNITS[0] as [RelativeUnit, number];
  for (const unit of RELATIVE_UNITS) if (abs >= unit[1]) chosen = unit;
  return relativeWords(Math.trunc(seconds / chosen[1]), chosen[0]);
}
