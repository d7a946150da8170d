import type { DomainEventOf } from '@ohgood/contract/domain-events';
import type { ReportTarget } from '@ohgood/contract/safety-rules';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { shortComments, shorts } from '../../db/schema';
import type { Tx } from '../../db/tx';
import { recordEvent } from '../../events/record-event';

/**
 * Called once a hide or restore has committed, so this instance's in-memory public answers (feed pages, one
 * short, comment rows) drop at once. Other instances hear the database's 'feed_changed', which the status
 * and comment triggers send in the same transaction. app.ts wires it; it is the one place to re-point.
 */
export type ContentChanged = () => void;

/** Who took an item down: the report threshold, pending review (#S11), or a moderator (#S12). */
export type HiddenBy = DomainEventOf<'shorts.content_hidden'>['by'];

/** The comment's first characters in its owner's notice, as long as a new comment's notice shows. */
const PREVIEW_LENGTH = 40;

/** The owner and name of the item that changed, for its owner's notice. */
interface Changed {
  customerId: number;
  shortId: number;
  preview: string;
}

/**
 * Takes a reported item out of every read path (docs/rules/shorts.md#S12): a short leaves READY (every
 * feed, search, profile and my page reads READY shorts only); a comment reads as deleted. Its owner hears of
 * it through an event in the same transaction (docs/rules/notifications.md#N2). True when it changed.
 */
export async function hideContent(tx: Tx, target: ReportTarget, id: number, at: Date, by: HiddenBy): Promise<boolean> {
  const changed = target === 'SHORT' ? await setShortStatus(tx, id, 'READY', 'HIDDEN') : await hideComment(tx, id, at);
  if (changed) {
    await recordEvent(tx, { type: 'shorts.content_hidden', ...changed, target, targetId: id, by }, at);
  }
  return changed !== null;
}

/** Puts a hidden item back where it was, and tells its owner. */
export async function restoreContent(tx: Tx, target: ReportTarget, id: number, at: Date): Promise<boolean> {
  const changed = target === 'SHORT' ? await setShortStatus(tx, id, 'HIDDEN', 'READY') : await restoreComment(tx, id);
  if (changed) await recordEvent(tx, { type: 'shorts.content_restored', ...changed, target, targetId: id }, at);
  return changed !== null;
}

async function setShortStatus(
  tx: Tx,
  id: number,
  from: 'READY' | 'HIDDEN',
  to: 'READY' | 'HIDDEN',
): Promise<Changed | null> {
  const [row] = await tx
    .update(shorts)
    .set({ status: to })
    .where(and(eq(shorts.id, id), eq(shorts.status, from)))
    .returning({ customerId: shorts.customerId, title: shorts.title });
  return row ? { customerId: row.customerId, shortId: id, preview: row.title } : null;
}

async function hideComment(tx: Tx, id: number, at: Date): Promise<Changed | null> {
  const [row] = await tx
    .update(shortComments)
    .set({ hiddenAt: at })
    .where(and(eq(shortComments.id, id), isNull(shortComments.hiddenAt)))
    .returning(commentColumns);
  if (!row) return null;
  if (row.deletedAt === null) await countComment(tx, row.shortId, -1);
  return commentChange(row);
}

async function restoreComment(tx: Tx, id: number): Promise<Changed | null> {
  const [row] = await tx
    .update(shortComments)
    .set({ hiddenAt: null })
    .where(and(eq(shortComments.id, id), isNotNull(shortComments.hiddenAt)))
    .returning(commentColumns);
  if (!row) return null;
  if (row.deletedAt === null) await countComment(tx, row.shortId, 1);
  return commentChange(row);
}

const commentColumns = {
  customerId: shortComments.customerId,
  shortId: shortComments.shortId,
  content: shortComments.content,
  deletedAt: shortComments.deletedAt,
};

function commentChange(row: { customerId: number; shortId: number; content: string }): Changed {
  return { customerId: row.customerId, shortId: row.shortId, preview: row.content.slice(0, PREVIEW_LENGTH) };
}

async function countComment(tx: Tx, shortId: number, delta: number) {
  await tx
    .update(shorts)
    .set({ commentCount: sql`greatest(0, ${shorts.commentCount} + ${delta})` })
    .where(eq(shorts.id, shortId));
}
