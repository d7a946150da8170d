import { addDays } from '@ohgood/contract/kst';
import calendar from './korean-holidays.json' with { type: 'json' };

/**
 * Korean business days (docs/rules/settlement.md#M2): not a Saturday or Sunday and not a public holiday of
 * `korean-holidays.json` (its `source` names where the dates come from and which years it holds). Dates are
 * KST calendar dates, 'YYYY-MM-DD'.
 */
const HOLIDAYS: ReadonlySet<string> = new Set(calendar.holidays.map((h) => h.date));
const YEARS: ReadonlySet<number> = new Set(calendar.years);

/** Whether the holiday file holds `date`'s year; outside it only weekends are known (see `isBusinessDay`). */
export function holidaysKnown(date: string): boolean {
  return YEARS.has(Number(date.slice(0, 4)));
}

/**
 * True when `date` is a business day. In a year the file does not hold only weekends are skipped: a payout
 * may then fall on a holiday (the bank books it the next business day) rather than every close stopping.
 */
export function isBusinessDay(date: string): boolean {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !HOLIDAYS.has(date);
}

/** The `n`th business day after `date` (D+n): D+1 of a Friday is the next Monday unless that is a holiday. */
export function addBusinessDays(date: string, n: number): string {
  let day = date;
  for (let left = n; left > 0; ) {
    day = addDays(day, 1);
    if (isBusinessDay(day)) left--;
  }
  return day;
}
