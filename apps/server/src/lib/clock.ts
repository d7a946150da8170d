/**
 * The one source of time. The business calendar is Asia/Seoul (domain §1) whatever the server's TZ;
 * KST has no daylight saving, so a fixed +9 h offset is exact.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * Real time shifted to begin at `start`: used by the browser e2e server (CLOCK_START) so date-dependent
 * flows (the 15th, the 16th, month ends) are the same whatever day the suite runs.
 */
export function shiftedClock(start: Date | string): Clock {
  const offset = new Date(start).getTime() - Date.now();
  return { now: () => new Date(Date.now() + offset) };
}

/** A clock tests drive by hand. */
export class ManualClock implements Clock {
  #ms: number;
  constructor(start: Date | string) {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  set(to: Date | string): void {
    this.#ms = new Date(to).getTime();
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
}

const KST_OFFSET_MS = 9 * 60 * 60 * 1000;

/** Calendar parts of an instant as seen in Seoul. */
function kstParts(at: Date): { year: number; month: number; day: number } {
  const shifted = new Date(at.getTime() + KST_OFFSET_MS);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** 'YYYY-MM-DD' in KST. */
export function kstDate(at: Date): string {
  const { year, month, day } = kstParts(at);
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** 'YYYY-MM' in KST. */
export function kstMonth(at: Date): string {
  return kstDate(at).slice(0, 7);
}

/** Month arithmetic on 'YYYY-MM' strings. */
export function addMonths(month: string, delta: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) + delta;
  return `${Math.floor(index / 12)}-${pad((index % 12) + 1)}`;
}

export function daysInMonth(month: string): number {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** The instant a KST calendar day starts, e.g. kstStartOfDay('2026-11-22'). */
export function kstStartOfDay(date: string): Date {
  return new Date(new Date(`${date}T00:00:00Z`).getTime() - KST_OFFSET_MS);
}

/** The first instant after the KST day `date` ends. */
export function kstEndOfDay(date: string): Date {
  return new Date(kstStartOfDay(date).getTime() + 24 * 60 * 60 * 1000);
}

/** Whole KST calendar days from `from` to `to` (both 'YYYY-MM-DD'). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** An instant as ISO 8601 in Seoul time, e.g. '2026-11-22T12:00:00+09:00' (what the API returns). */
export function kstIso(at: Date): string {
  const shifted = new Date(at.getTime() + KST_OFFSET_MS);
  return `${shifted.toISOString().slice(0, 19)}+09:00`;
}
