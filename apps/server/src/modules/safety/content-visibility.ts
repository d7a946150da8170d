import type { ReportTarget } from '@ohgood/contract/safety-rules';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { shortComments, shorts } from '../../db/schema';
import type { Tx } from '../../db/tx';

/**
 * Called once a hide or restore has committed, so this instance's in-memory public answers (feed pages, one
 * short, comment rows) drop at once. Other instances hear the database's 'feed_changed', which the status
 * and comment triggers send in the same transaction. app.ts wires it; it is the one place to re-point.
 */
export type ContentChanged = () => void;

/**
 * Takes a reported item out of every read path (docs/rules/shorts.md#S12): a short leaves READY (every
 * feed, search, profile and my page reads READY shorts only); a comment reads as deleted. True when it changed.
 */
export async function hideContent(tx: Tx, target: ReportTarget, id: number, at: Date): Promise<boolean> {
  if (target === 'SHORT') {
    const rows = await tx
      .update(shorts)
      .set({ status: 'HIDDEN' })
      .where(and(eq(shorts.id, id), eq(shorts.status, 'READY')))
      .returning({ id: shorts.id });
    return rows.length > 0;
  }
  const rows = await tx
    .update(shortComments)
    .set({ hiddenAt: at })
    .where(and(eq(shortComments.id, id), isNull(shortComments.hiddenAt)))
    .returning({ shortId: shortComments.shortId, deletedAt: shortComments.deletedAt });
  const hidden = rows[0];
  if (hidden && hidden.deletedAt === null) await countComment(tx, hidden.shortId, -1);
  return rows.length > 0;
}

/** Puts a hidden item back where it was. */
export async function restoreContent(tx: Tx, target: ReportTarget, id: number): Promise<boolean> {
  if (target === 'SHORT') {
    const rows = await tx
      .update(shorts)
      .set({ status: 'READY' })
      .where(and(eq(shorts.id, id), eq(shorts.status, 'HIDDEN')))
      .returning({ id: shorts.id });
    return rows.length > 0;
  }
  const rows = await tx
    .update(shortComments)
    .set({ hiddenAt: null })
    .where(and(eq(shortComments.id, id), isNotNull(shortComments.hiddenAt)))
    .returning({ shortId: shortComments.shortId, deletedAt: shortComments.deletedAt });
  const restored = rows[0];
  if (restored && restored.deletedAt === null) await countComment(tx, restored.shortId, 1);
  return rows.length > 0;
}

async function countComment(tx: Tx, shortId: number, delta: number) {
  await tx
    .update(shorts)
    .set({ commentCount: sql`greatest(0, ${shorts.commentCount} + ${delta})` })
    .where(eq(shorts.id, shortId));
}
