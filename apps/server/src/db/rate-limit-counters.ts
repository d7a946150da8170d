import { lt, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { LONGEST_WINDOW_MS, type Window, windowStart } from '../lib/rate-limit';
import { rateLimitCounters } from './schema';
import type { Executor } from './tx';

/**
 * Fixed-window counters kept in the database rather than in memory, so every server instance sees the
 * same count. A limit on checking a secret `claim`s its windows before the check and `release`s them when the
 * check succeeds (only failures count); `isOver` and `hit` are for work that is not a guess.
 */
export async function isOver(db: Executor, window: Window, now: Date): Promise<boolean> {
  const [row] = await db.select({ over: anyOverSql([window], now) }).from(sql`(values (1)) as one (x)`);
  return row?.over === true;
}

/**
 * "Is any of these windows at its limit?" as a SQL boolean. Payments' validate makes the same check in its one
 * read (`validate-read.ts`), with each window's bounds as a statement's placeholders (`anyAtLimitSql`).
 */
export function anyOverSql(windows: Window[], now: Date): SQL<boolean> {
  return anyAtLimitSql(windows.map((w) => ({ key: w.key, start: windowStart(now, w.windowMs), limit: w.limit })));
}

/** A window as the counters see it: its key, the start of its current window and its limit. */
export interface WindowBounds {
  key: string | Placeholder;
  start: Date | Placeholder;
  limit: number | Placeholder;
}

/** `anyOverSql` for bounds given as values or as the placeholders of a statement built once (`builtOnce`). */
export function anyAtLimitSql(bounds: WindowBounds[]): SQL<boolean> {
  const atLimit = bounds.map(
    (b) =>
      sql`(${rateLimitCounters.key} = ${b.key} and ${rateLimitCounters.windowStart} = ${b.start}
        and ${rateLimitCounters.count} >= ${b.limit})`,
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

/** A window `claim` counts in without ever refusing: the caller reads its count (e.g. an address's ceiling). */
export interface CountedWindow extends Window {
  countOnly: true;
}

export interface Claim {
  /** Every window that refuses had room, and each now counts this attempt: the secret may be checked. */
  granted: boolean;
  /** When not granted, the first of the caller's windows that was full; nothing is counted then. */
  refusedBy: Window | undefined;
  /** When granted, a window's count with this attempt in it (a count-only window's decides what to answer). */
  count(window: Window): number;
}

/** Keys in one order for every statement, so two claims on overlapping windows never wait on each other in a cycle. */
const byKey = <W extends Window>(windows: W[]) =>
  [...windows].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

/**
 * Counts an attempt in every window, and reads the counts, in one statement (`INSERT … ON CONFLICT … DO UPDATE …
 * WHERE count < limit RETURNING`), before the secret is checked: the row lock orders parallel attempts, so N
 * of them at once get at most a limit's worth of checks (docs/security.md, "limits that can be raced"). A full
 * window is not counted; when any window refuses, the others' counts are taken back, so a refused attempt
 * counts nowhere (as a 429 never did). A check that then succeeds gives its place back with `release`.
 */
export async function claim(db: Executor, windows: (Window | CountedWindow)[], now: Date): Promise<Claim> {
  const sorted = byKey(windows);
  const room = sql.join(
    sorted.map((w) => sql`when ${w.key} then ${'countOnly' in w ? Number.MAX_SAFE_INTEGER : w.limit}::bigint`),
    sql` `,
  );
  const rows = await db
    .insert(rateLimitCounters)
    .values(sorted.map((w) => ({ key: w.key, windowStart: windowStart(now, w.windowMs), count: 1 })))
    .onConflictDoUpdate({
      target: [rateLimitCounters.key, rateLimitCounters.windowStart],
      set: { count: sql`${rateLimitCounters.count} + 1` },
      setWhere: sql`${rateLimitCounters.count} < case ${rateLimitCounters.key} ${room} end`,
    })
    .returning({ key: rateLimitCounters.key, count: rateLimitCounters.count });
  const counts = new Map(rows.map((row) => [row.key, row.count]));
  const full = (w: Window | CountedWindow) => !('countOnly' in w) && (counts.get(w.key) ?? w.limit + 1) > w.limit;
  const refusedBy = windows.find(full);
  if (refusedBy) {
    await release(
      db,
      sorted.filter((w) => counts.has(w.key) && !full(w)),
      now,
    );
  }
  return { granted: !refusedBy, refusedBy, count: (w) => counts.get(w.key) ?? 0 };
}

/** Gives back the place `claim` counted in each window (a check that succeeded: only failures count). */
export async function release(db: Executor, windows: Window[], now: Date): Promise<void> {
  if (windows.length === 0) return;
  // An upsert, in the claims' key order; a counter reset in between (a lockout reset) stays at zero.
  await db
    .insert(rateLimitCounters)
    .values(byKey(windows).map((w) => ({ key: w.key, windowStart: windowStart(now, w.windowMs), count: 0 })))
    .onConflictDoUpdate({
      target: [rateLimitCounters.key, rateLimitCounters.windowStart],
      set: { count: sql`greatest(${rateLimitCounters.count} - 1, 0)` },
    });
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
