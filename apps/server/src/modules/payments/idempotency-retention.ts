import { lt } from 'drizzle-orm';
import { idempotencyKeys } from '../../db/schema';
import type { Executor } from '../../db/tx';

/**
 * How long a stored final answer is kept for retries (docs/rules/payments.md#P17). A retry comes from the
 * payment sheet that sent the first call, with that sheet's login token, so it arrives within the token's
 * 12-hour life; a day leaves margin. Safety never depends on these rows: a paid request stays PAID, so a
 * late retry is refused (409) and nothing is charged twice.
 */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Drops the stored answers written more than `IDEMPOTENCY_RETENTION_MS` before `now`; returns how many. */
export async function pruneIdempotencyKeys(db: Executor, now: Date): Promise<number> {
  const expired = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS)))
    .returning({ key: idempotencyKeys.key });
  return expired.length;
}
