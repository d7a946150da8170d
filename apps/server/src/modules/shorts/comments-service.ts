import type { CommentItem, CreateCommentRequest } from '@ohgood/contract/shorts';
import { SHORTS_MSG } from '@ohgood/contract/shorts-rules';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { customers, shortComments, shorts } from '../../db/schema';
import { withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { forbidden, notFound, unprocessable } from '../../lib/errors';
import type { BlockedBy } from '../safety/service';
import { lockReadyShort, readyShort } from './playable-short';

type CommentRow = {
  id: number;
  parentId: number | null;
  content: string;
  deletedAt: Date | null;
  createdAt: Date;
  customerId: number;
  nickname: string;
  profileImg: string | null;
};

/** Most shorts whose comment rows are remembered at once. */
const MAX_CACHED_SHORTS = 5_000;

/**
 * Comments on a short, one level of replies, soft-deleted by their author (docs/rules/shorts.md#S4); a comment
 * hidden by moderation reads as deleted (#S12), and a viewer never sees the comments of creators they
 * blocked (#S13).
 */
export function createCommentsService(db: Db, clock: Clock, blockedBy: BlockedBy) {
  /*
   * A playable short's comment rows, remembered until anything about shorts changes: every comment write,
   * a short leaving READY, an author renaming — each fires the database's 'feed_changed' (migration 0003),
   * on which the app calls `forgetAll`; this instance's own writes forget at once as well. Only the
   * viewer-dependent `deletable` is computed per request.
   */
  const cached = new Map<number, CommentRow[]>();
  let generation = 0;

  async function rowsOf(shortId: number): Promise<CommentRow[]> {
    const hit = cached.get(shortId);
    if (hit) return hit;
    const startedAt = generation;
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
    if (startedAt === generation) {
      if (cached.size >= MAX_CACHED_SHORTS) cached.clear();
      cached.set(shortId, rows);
    }
    return rows;
  }

  const forgetAll = () => {
    generation += 1;
    cached.clear();
  };

  return {
    forgetAll,

    /** Flat list, oldest first; a deleted comment shows only while it still has visible replies. */
    async comments(shortId: number, viewer: number | null): Promise<CommentItem[]> {
      const blocked = await blockedBy(viewer);
      const rows = (await rowsOf(shortId)).filter((r) => !blocked.has(r.customerId));
      const parentsWithReplies = new Set(
        rows.filter((r) => r.parentId !== null && r.deletedAt === null).map((r) => r.parentId),
      );
      return rows
        .filter((r) => r.deletedAt === null || (r.parentId === null && parentsWithReplies.has(r.id)))
        .map((r) => {
          const deleted = r.deletedAt !== null;
          return {
            commentId: r.id,
            gno: r.parentId ?? 0,
            content: deleted ? SHORTS_MSG.deletedComment : r.content,
            nickname: deleted ? '' : r.nickname,
            profileImg: deleted ? null : r.profileImg,
            date: r.createdAt.toISOString(),
            deletable: !deleted && viewer === r.customerId,
            deleted,
            customerId: deleted ? 0 : r.customerId,
          };
        });
    },

    async addComment(shortId: number, author: number, body: CreateCommentRequest): Promise<CommentItem> {
      const added = await withTx(db, async (tx) => {
        await lockReadyShort(tx, shortId);
        if (body.gno !== 0) {
          const [parent] = await tx
            .select({
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
        }
        const now = clock.now();
        const [row] = await tx
          .insert(shortComments)
          .values({ shortId, customerId: author, parentId: body.gno || null, content: body.content, createdAt: now })
          .returning({ id: shortComments.id });
        await tx
          .update(shorts)
          .set({ commentCount: sql`${shorts.commentCount} + 1` })
          .where(eq(shorts.id, shortId));
        const [me] = await tx
          .select({ nickname: customers.nickname, profileImg: customers.profileImg })
          .from(customers)
          .where(eq(customers.id, author));
        return {
          commentId: row?.id ?? 0,
          gno: body.gno,
          content: body.content,
          nickname: me?.nickname ?? '',
          profileImg: me?.profileImg ?? null,
          date: now.toISOString(),
          deletable: true,
          deleted: false,
          customerId: author,
        };
      });
      forgetAll();
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
      forgetAll();
      return result;
    },
  };
}

export type CommentsService = ReturnType<typeof createCommentsService>;
