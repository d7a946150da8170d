import { and, eq, type Placeholder } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { shorts } from '../../db/schema';
import type { Tx } from '../../db/tx';
import { notFound } from '../../lib/errors';

/** The one answer for a short that is missing, not yet processed or failed. */
export const shortNotFound = () => notFound('SHORT_NOT_FOUND', '영상을 찾을 수 없습니다.');

/**
 * The short `id`, if it can be played (READY): the one condition every write on a short goes through. The id
 * may be a `sql.placeholder` in a statement built once (`builtOnce`).
 */
export const playable = (id: number | Placeholder) => and(eq(shorts.id, id), eq(shorts.status, 'READY'));

/** A short that can be played (READY), with what watch points need; SHORT_NOT_FOUND otherwise. */
export async function readyShort(db: Db, id: number) {
  const [row] = await db
    .select({ id: shorts.id, customerId: shorts.customerId, durationMs: shorts.durationMs })
    .from(shorts)
    .where(playable(id));
  if (!row) throw shortNotFound();
  return row;
}

/**
 * Locks a playable short's row: comments and reactions on one short then run one at a time. NO KEY UPDATE,
 * not UPDATE: the row's key never changes, and a plain FOR UPDATE would also block the foreign-key checks
 * (FOR KEY SHARE) of every view opened on that short meanwhile, the most frequent write there is.
 */
export async function lockReadyShort(tx: Tx, shortId: number): Promise<{ ownerId: number }> {
  const [short] = await tx
    .select({ id: shorts.id, ownerId: shorts.customerId })
    .from(shorts)
    .where(playable(shortId))
    .for('no key update');
  if (!short) throw shortNotFound();
  return { ownerId: short.ownerId };
}
