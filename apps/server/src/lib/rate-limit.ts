import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimitCounters } from '../db/schema';
import type { Executor } from '../db/tx';

export interface Window {
  /** Distinct name of what is limited, e.g. 'login-fail:email:a@b.kr'. */
  key: string;
  limit: number;
  windowMs: number;
}

function windowStart(now: Date, windowMs: number): Date {
  return new Date(Math.floor(now.getTime() / windowMs) * windowMs);
}

/**
 * Fixed-window counters kept in the database rather than in memory, so every server instance sees the
 * same count. Callers `isOver` before the work and `hit` when it counts (e.g. only on failures).
 */
export async function isOver(db: Executor, window: Window, now: Date): Promise<boolean> {
  const rows = await db
    .select({ count: rateLimitCounters.count })
    .from(rateLimitCounters)
    .where(
      and(eq(rateLimitCounters.key, window.key), eq(rateLimitCounters.windowStart, windowStart(now, window.windowMs))),
    );
  return (rows[0]?.count ?? 0) >= window.limit;
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

/** Drops windows older than a day; run by the housekeeping job. */
export async function pruneCounters(db: Db, now: Date): Promise<void> {
  await db.delete(rateLimitCounters).where(lt(rateLimitCounters.windowStart, new Date(now.getTime() - 86_400_000)));
}
