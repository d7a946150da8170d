import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { mediaDeletions } from '../../db/schema';
import type { Tx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import type { MediaStorage } from './storage';

/** A delete the store refused is tried again after 1, 2, 4 … minutes, at most an hour apart. */
const RETRY_BASE_MS = 60_000;
const RETRY_MAX_MS = 60 * 60_000;
/** Owed deletes handled per pass, so one pass stays short however many piled up during an outage. */
const BATCH = 200;

/**
 * Records, in the caller's transaction, that these objects must go (docs/rules/shorts.md#S18): the store may
 * be down when the transaction commits, and a delete that is only attempted could be lost.
 */
export async function oweDeletion(tx: Tx, keys: ReadonlyArray<string | null>, at: Date): Promise<void> {
  const rows = keys.filter((key): key is string => key !== null).map((key) => ({ key, dueAt: at }));
  if (rows.length === 0) return;
  await tx.insert(mediaDeletions).values(rows).onConflictDoNothing();
}

/**
 * Deletes owed objects that are due (or just `keys`, right after the transaction that owed them): each
 * confirmed delete clears its row; a failed one stays owed, due again after a backoff.
 */
export async function settleDeletions(
  db: Db,
  storage: MediaStorage,
  clock: Clock,
  keys?: readonly string[],
): Promise<{ deleted: number; failed: number }> {
  const due = await db
    .select()
    .from(mediaDeletions)
    .where(keys ? inArray(mediaDeletions.key, [...keys]) : lte(mediaDeletions.dueAt, clock.now()))
    .orderBy(mediaDeletions.dueAt)
    .limit(BATCH);
  let deleted = 0;
  let failed = 0;
  for (const owed of due) {
    try {
      await storage.delete(owed.key);
      await db.delete(mediaDeletions).where(eq(mediaDeletions.key, owed.key));
      deleted += 1;
    } catch {
      failed += 1;
      const wait = Math.min(RETRY_BASE_MS * 2 ** owed.attempts, RETRY_MAX_MS);
      await db
        .update(mediaDeletions)
        .set({ attempts: sql`${mediaDeletions.attempts} + 1`, dueAt: new Date(clock.now().getTime() + wait) })
        .where(and(eq(mediaDeletions.key, owed.key), eq(mediaDeletions.attempts, owed.attempts)));
    }
  }
  return { deleted, failed };
}
