import { and, eq, lt, or, sql } from 'drizzle-orm';
import { rateLimitCounters } from '../db/schema';
import type { Executor } from '../db/tx';

export interface Window {
  /** Distinct name of what is limited, e.g. 'login-fail:email:a@b.kr'. */
  key: string;
  limit: number;
  windowMs: number;
}

/**
 * No window may be longer than this: the prune job drops every counter whose window began this long ago,
 * and such a window has ended whatever its length (docs/rules/money-and-time.md#T8).
 */
export const LONGEST_WINDOW_MS = 24 * 60 * 60 * 1000;

function windowStart(now: Date, windowMs: number): Date {
  // A longer window would lose its counts to the prune job while still open.
  if (windowMs > LONGEST_WINDOW_MS) throw new Error(`rate-limit window of ${windowMs} ms exceeds a day`);
  return new Date(Math.floor(now.getTime() / windowMs) * windowMs);
}

/**
 * Fixed-window counters kept in the database rather than in memory, so every server instance sees the
 * same count. Callers `isOver` before the work and `hit` when it counts (e.g. only on failures).
 */
export async function isOver(db: Executor, window: Window, now: Date): Promise<boolean> {
  return isAnyOver(db, [window], now);
}

/** True when any of the windows is at its limit: one query for all of them (one round trip per request). */
export async function isAnyOver(db: Executor, windows: Window[], now: Date): Promise<boolean> {
  const keyed = windows.map((window) => ({ ...window, start: windowStart(now, window.windowMs) }));
  const rows = await db
    .select({ key: rateLimitCounters.key, windowStart: rateLimitCounters.windowStart, count: rateLimitCounters.count })
    .from(rateLimitCounters)
    .where(or(...keyed.map((w) => and(eq(rateLimitCounters.key, w.key), eq(rateLimitCounters.windowStart, w.start)))));
  return keyed.some((w) =>
    rows.some((row) => row.key === w.key && row.windowStart.getTime() === w.start.getTime() && row.count >= w.limit),
  );
}

/** Counts one event; returns true when this event went over the limit. */
export async function hit(db: Executor, window: Window, now: Date): Promise<boolean> {
  const [row] = await db
    .insert(rateLimitCounters)
    .values({ key: window.key, windowStart: windowStart(now, window.windowMs), count: 1 })
    .onConflictDoUpdate({
      target: [rateLimitCounters.key, rateLimitCounters.windowStart],
      set: { count: sql`${rateLimitCounters.count} + 1` },
    })
    .returning({ count: rateLimitCounters.count });
  return (row?.count ?? 0) > window.limit;
}

/**
 * Drops the counters of windows that began more than `LONGEST_WINDOW_MS` before `now`: they have ended, so
 * no `isOver` or `hit` reads them again. Run by the daily prune job (`jobs/prune-job.ts`); returns how many.
 */
export async function pruneCounters(db: Executor, now: Date): Promise<number> {
  const ended = await db
    .delete(rateLimitCounters)
    .where(lt(rateLimitCounters.windowStart, new Date(now.getTime() - LONGEST_WINDOW_MS)))
    .returning({ key: rateLimitCounters.key });
  return ended.length;
}
