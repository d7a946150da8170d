import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/tx';

/**
 * Resolves once `count` statements whose text matches `pattern` (ILIKE) wait for a row lock, as
 * `pg_stat_activity` shows them: a test's proof that a write queued behind a lock another transaction holds.
 */
export async function lockWaiters(db: Db, pattern: string, count = 1): Promise<void> {
  for (;;) {
    const [row] = await rowsOf<{ n: number }>(
      db,
      sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query ilike ${pattern}`,
    );
    if ((row?.n ?? 0) >= count) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
