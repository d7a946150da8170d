import type { CommentItem, CommentsResponse, CreateCommentRequest } from '@ohgood/contract/shorts';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { CacheChanges } from '../../cache-changes';
import type { Db } from '../../db/client';
import { customers, shortComments, shorts } from '../../db/schema';
import { rowsOf, withTx } from '../../db/tx';
import { recordEvent } from '../../events/record-event';
import type { JsonText } from '../../http/json-text';
import type { Cache } from '../../lib/cache-home';
import type { Clock } from '../../lib/clock';
import { forbidden, notFound, unprocessable } from '../../lib/errors';
import type { BlockedBy } from '../safety/service';
import { type CommentRow, commentsJson } from './comments-json';
import { lockReadyShort, readyShort } from './playable-short';

/** How much of a comment its notice quotes. */
const COMMENT_PREVIEW_LENGTH = 40;

/**
 * Comments on a short, one level of replies, soft-deleted by their author (docs/rules/shorts.md#S4); a comment
 * hidden by moderation reads as deleted (#S12), and a viewer never sees the comments of creators they
 * blocked (#S13).
 */
export function createCommentsService(
  db: Db,
  clock: Clock,
  cached: Cache<number, CommentRow[]>,
  changes: Pick<CacheChanges, 'commentsChanged'>,
  blockedBy: BlockedBy,
) {
  /*
   * A playable short's comment rows, kept in their cache ('comment-rows', `caches.ts`) until that short's
   * comments change or the short itself does: every instance hears it from the database (migration 0040),
   * and this instance's own writes drop it at once. Only the viewer-dependent `deletable` is per request.
   */
  async function commentRowsOf(shortId: number): Promise<CommentRow[]> {
    const hit = cached.get(shortId);
    if (hit) return hit;
    const startedAt = cached.generation();
    await readyShort(db, shortId);
    const rows = await db
      .select({
        id: shortComments.id,
        parentId: shortComments.parentId,
        content: shortComments.content,
        deletedAt: sql<Date | null>`coalesce(${shortComments.deletedAt}, ${shortComments.hiddenAt})`.mapWith(
          shortComments.deletedAt,
        ),
        createdAt: shortComments.createdAt,
        customerId: shortComments.customerId,
        nickname: customers.nickname,
        profileImg: customers.profileImg,
      })
      .from(shortComments)
      .innerJoin(customers, eq(customers.id, shortComments.customerId))
      .where(eq(shortComments.shortId, shortId))
      .orderBy(asc(shortComments.id));
    // Read before a change finished being announced: answer with it, do not keep it.
    cached.set(shortId, rows, startedAt);
    return rows;
  }

  return {
    /**
     * Flat list, oldest first; a deleted comment shows only while it still has visible replies. The body's
     * JSON text (`comments-json.ts`): only `deletable` is per viewer.
     */
    async comments(shortId: number, viewer: number | null): Promise<JsonText<CommentsResponse>> {
      const blocked = await blockedBy(viewer);
      const rows = (await commentRowsOf(shortId)).filter((r) => !blocked.has(r.customerId));
      const parentsWithReplies = new Set(
        rows.filter((r) => r.parentId !== null && r.deletedAt === null).map((r) => r.parentId),
      );
      const listed = rows.filter((r) => r.deletedAt === null || (r.parentId === null && parentsWithReplies.has(r.id)));
      return commentsJson(listed, viewer);
    },

    async addComment(shortId: number, author: number, body: CreateCommentRequest): Promise<CommentItem> {
      const added = await withTx(db, async (tx) => {
        const { ownerId } = await lockReadyShort(tx, shortId);
        let parentAuthorId: number | null = null;
        if (body.gno !== 0) {
          const [parent] = await tx
            .select({
              authorId: shortComments.customerId,
              parentId: shortComments.parentId,
              shortId: shortComments.shortId,
              deletedAt: shortComments.deletedAt,
            })
            .from(shortComments)
            .where(eq(shortComments.id, body.gno));
          if (!parent || parent.shortId !== shortId || parent.deletedAt !== null) {
            throw unprocessable('PARENT_NOT_FOUND', '답글을 달 댓글을 찾을 수 없습니다.');
          }
          if (parent.parentId !== null) throw unprocessable('REPLY_DEPTH', '답글에는 답글을 달 수 없습니다.');
          parentAuthorId = parent.authorId;
        }
        const now = clock.now();
        // The comment, the short's count and the author's name as it shows, in one round trip (the short is
        // locked above, so its count moves in lock order).
        const [added] = await rowsOf<{ id: number; nickname: string; profileImg: string | null }>(
          tx,
          sql`with added as (
                insert into ${shortComments} (short_id, customer_id, parent_id, content, created_at)
                values (${shortId}::int, ${author}::int, ${body.gno || null}::int, ${body.content}, ${now.toISOString()}::timestamptz)
                returning id),
              counted as (
                update ${shorts} set comment_count = comment_count + 1 where id = ${shortId}::int)
              select added.id, c.nickname, c.profile_img as "profileImg"
                from added left join ${customers} c on c.id = ${author}::int`,
        );
        // The short's owner and the replied-to author hear of it (docs/rules/notifications.md#N2).
        await recordEvent(
          tx,
          {
            type: 'shorts.comment_added',
            customerId: author,
            shortId,
            commentId: added?.id ?? 0,
            shortOwnerId: ownerId,
            parentAuthorId,
            nickname: added?.nickname ?? '',
            preview: body.content.slice(0, COMMENT_PREVIEW_LENGTH),
          },
          now,
        );
        return {
          commentId: added?.id ?? 0,
          gno: body.gno,
          content: body.content,
          nickname: added?.nickname ?? '',
          profileImg: added?.profileImg ?? null,
          date: now.toISOString(),
          deletable: true,
          deleted: false,
          customerId: author,
        };
      });
      changes.commentsChanged(shortId);
      return added;
    },

    /** Own comments only; the row stays (soft delete) so its replies keep their place. */
    async deleteComment(shortId: number, commentId: number, caller: number): Promise<{ deleted: boolean }> {
      const result = await withTx(db, async (tx) => {
        const [comment] = await tx
          .select({ customerId: shortComments.customerId, deletedAt: shortComments.deletedAt })
          .from(shortComments)
          .where(and(eq(shortComments.id, commentId), eq(shortComments.shortId, shortId)))
          .for('update');
        if (!comment || comment.deletedAt !== null) throw notFound('COMMENT_NOT_FOUND', '댓글을 찾을 수 없습니다.');
        if (comment.customerId !== caller)
          throw forbidden('NOT_COMMENT_OWNER', '본인이 작성한 댓글만 삭제할 수 있습니다.');
        await tx.update(shortComments).set({ deletedAt: clock.now() }).where(eq(shortComments.id, commentId));
        await tx
          .update(shorts)
          .set({ commentCount: sql`greatest(0, ${shorts.commentCount} - 1)` })
          .where(eq(shorts.id, shortId));
        return { deleted: true };
      });
      changes.commentsChanged(shortId);
      return result;
    },
  };
}

export type CommentsService = ReturnType<typeof createCommentsService>;
