import { lt, type SQL, sql } from 'drizzle-orm';
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

export function windowStart(now: Date, windowMs: number): Date {
  // A longer window would lose its counts to the prune job while still open.
  if (windowMs > LONGEST_WINDOW_MS) throw new Error(`rate-limit window of ${windowMs} ms exceeds a day`);
  return new Date(Math.floor(now.getTime() / windowMs) * windowMs);
}

/**
 * Fixed-window counters kept in the database rather than in memory, so every server instance sees the
 * same count. Callers `isOver` before the work and `hit` when it counts (e.g. only on failures).
 */
export async function isOver(db: Executor, window: Window, now: Date): Promise<boolean> {
  const [row] = await db.select({ over: anyOverSql([window], now) }).from(sql`(values (1)) as one (x)`);
  return row?.over === true;
}

/**
 * "Is any of these windows at its limit?" as a SQL boolean. Payments' validate makes the same check inside
 * `payment_validate_read_batch` (migration 0013), in SQL.
 */
export function anyOverSql(windows: Window[], now: Date): SQL<boolean> {
  const atLimit = windows.map(
    (w) =>
      sql`(${rateLimitCounters.key} = ${w.key} and ${rateLimitCounters.windowStart} = ${windowStart(now, w.windowMs)}
        and ${rateLimitCounters.count} >= ${w.limit})`,
  );
  return sql<boolean>`exists (select 1 from ${rateLimitCounters} where ${sql.join(atLimit, sql` or `)})`;
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
