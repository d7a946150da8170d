import { addDays } from '@ohgood/contract/kst';
import calendar from './korean-holidays.json' with { type: 'json' };

/**
 * Korean business days (docs/rules/settlement.md#M2): not a Saturday or Sunday and not a public holiday of
 * `korean-holidays.json` (its `source` names where the dates come from and which years it holds). Dates are
 * KST calendar dates, 'YYYY-MM-DD'.
 */
const HOLIDAYS: ReadonlySet<string> = new Set(calendar.holidays.map((h) => h.date));
const YEARS: ReadonlySet<number> = new Set(calendar.years);

/** True when `date` is a business day. A year the file does not hold is refused rather than guessed. */
export function isBusinessDay(date: string): boolean {
  if (!YEARS.has(Number(date.slice(0, 4)))) {
    throw new Error(`no public holidays known for ${date.slice(0, 4)}: add the year to korean-holidays.json`);
  }
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
