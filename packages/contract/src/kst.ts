/**
 * The business calendar is Asia/Seoul (docs/rules/money-and-time.md#T2), whatever the device's or server's zone. KST
 * has no daylight saving, so a fixed +9 h offset is exact. Pure functions shared by the server and the web app.
 */
const KST_OFFSET_MS = 9 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

const pad = (n: number) => String(n).padStart(2, '0');

/** The instant shifted so that its UTC fields read as Seoul wall-clock time. */
function seoulWallClock(at: Date | string): Date {
  return new Date(new Date(at).getTime() + KST_OFFSET_MS);
}

/** 'YYYY-MM-DD' in KST. */
export function kstDate(at: Date | string): string {
  return seoulWallClock(at).toISOString().slice(0, 10);
}

/** 'YYYY-MM' in KST. */
export function kstMonth(at: Date | string): string {
  return kstDate(at).slice(0, 7);
}

/** 'HH:mm' in KST. */
export function kstTime(at: Date | string): string {
  return seoulWallClock(at).toISOString().slice(11, 16);
}

/** An instant as ISO 8601 in Seoul time, e.g. '2026-11-22T12:00:00+09:00' (what the API returns). */
export function kstIso(at: Date | string): string {
  return `${seoulWallClock(at).toISOString().slice(0, 19)}+09:00`;
}

/** True for a real calendar date written 'YYYY-MM-DD' (so '2026-09-99' and '2026-02-30' are not). */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

/** Month arithmetic on 'YYYY-MM' strings. */
export function addMonths(month: string, delta: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) + delta;
  return `${Math.floor(index / 12)}-${pad((index % 12) + 1)}`;
}

/** The date of `day` in `month`, e.g. dateInMonth('2026-11', 5) → '2026-11-05'. */
export function dateInMonth(month: string, day: number): string {
  return `${month}-${pad(day)}`;
}

/** A month as the half-open range of its KST dates: its first day and the next month's first day. */
export function monthDates(month: string): { first: string; nextFirst: string } {
  return { first: dateInMonth(month, 1), nextFirst: dateInMonth(addMonths(month, 1), 1) };
}

export function daysInMonth(month: string): number {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** The instant a KST calendar day starts, e.g. kstStartOfDay('2026-11-22'). */
export function kstStartOfDay(date: string): Date {
  return new Date(Date.parse(`${date}T00:00:00Z`) - KST_OFFSET_MS);
}

/** The first instant after the KST day `date` ends. */
export function kstEndOfDay(date: string): Date {
  return new Date(kstStartOfDay(date).getTime() + DAY_MS);
}

/** Day arithmetic on 'YYYY-MM-DD' strings, e.g. addDays('2026-12-01', -1) → '2026-11-30'. */
export function addDays(date: string, delta: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + delta * DAY_MS).toISOString().slice(0, 10);
}

/** Whole KST calendar days from `from` to `to` (both 'YYYY-MM-DD'). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}
