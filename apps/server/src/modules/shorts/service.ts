import { kstDate } from '@ohgood/contract/kst';
import { LIMITS } from '@ohgood/contract/limits';
import type {
  CommentItem,
  CreateCommentRequest,
  EarnResult,
  FeedPage,
  FeedQuery,
  MyReaction,
  ReactionResult,
  ReactionType,
  ShortItem,
  StatusResult,
  SubscriptionStatus,
} from '@ohgood/contract/shorts';
import { minimumWatchSeconds, SHORTS_MSG, watchPoints } from '@ohgood/contract/shorts-rules';
import { and, asc, count, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { lockCustomer } from '../../db/locks';
import {
  customers,
  shortComments,
  shortRanks,
  shortReactions,
  shortSubscriptions,
  shorts,
  shortViews,
  shortWatchDaily,
} from '../../db/schema';
import { type Tx, withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { forbidden, notFound, unprocessable } from '../../lib/errors';
import { POINT_REASONS, postPoints } from '../points/ledger';
import type { Ranking } from './ranking';
import { keywordFilter } from './search';

const shortNotFound = () => notFound('SHORT_NOT_FOUND', '영상을 찾을 수 없습니다.');

type ShortRow = {
  id: number;
  title: string;
  content: string;
  videoKey: string;
  thumbnailKey: string | null;
  durationMs: number;
  likeCount: number;
  commentCount: number;
  createdAt: Date;
  customerId: number;
  nickname: string;
  profileImg: string | null;
};

const shortColumns = {
  id: shorts.id,
  title: shorts.title,
  content: shorts.content,
  videoKey: shorts.videoKey,
  thumbnailKey: shorts.thumbnailKey,
  durationMs: shorts.durationMs,
  likeCount: shorts.likeCount,
  commentCount: shorts.commentCount,
  createdAt: shorts.createdAt,
  customerId: shorts.customerId,
  nickname: customers.nickname,
  profileImg: customers.profileImg,
};

export function createShortsService(db: Db, clock: Clock, mediaBaseUrl: string, ranking: Ranking) {
  /** myReaction and subscriptionStatus for a whole page in two queries (no N+1). */
  async function personalise(rows: ShortRow[], viewer: number | null): Promise<ShortItem[]> {
    const reactions = new Map<number, MyReaction>();
    const subscribed = new Set<number>();
    if (viewer !== null && rows.length > 0) {
      const [reactionRows, subscriptionRows] = await Promise.all([
        db
          .select({ shortId: shortReactions.shortId, type: shortReactions.type })
          .from(shortReactions)
          .where(
            and(
              eq(shortReactions.customerId, viewer),
              inArray(
                shortReactions.shortId,
                rows.map((r) => r.id),
              ),
            ),
          ),
        db
          .select({ targetId: shortSubscriptions.targetId })
          .from(shortSubscriptions)
          .where(
            and(
              eq(shortSubscriptions.subscriberId, viewer),
              inArray(shortSubscriptions.targetId, [...new Set(rows.map((r) => r.customerId))]),
            ),
          ),
      ]);
      for (const r of reactionRows) reactions.set(r.shortId, r.type as MyReaction);
      for (const s of subscriptionRows) subscribed.add(s.targetId);
    }
    return rows.map((row) => {
      let subscriptionStatus: SubscriptionStatus = 'NOT_SUBSCRIBED';
      if (viewer === row.customerId) subscriptionStatus = 'SELF';
      else if (subscribed.has(row.customerId)) subscriptionStatus = 'SUBSCRIBED';
      return {
        shortsId: row.id,
        videoName: row.videoKey,
        thumbnail: row.thumbnailKey,
        shortsName: row.title,
        title: row.title,
        shortsExplain: row.content,
        content: row.content,
        date: row.createdAt.toISOString(),
        customerId: row.customerId,
        customerNickname: row.nickname,
        nickname: row.nickname,
        profileImg: row.profileImg,
        commentCount: row.commentCount,
        likeCount: row.likeCount,
        myReaction: reactions.get(row.id) ?? 'none',
        subscriptionStatus,
        durationSeconds: row.durationMs / 1000,
      };
    });
  }

  async function readyShort(id: number) {
    const [row] = await db
      .select({ id: shorts.id, customerId: shorts.customerId, durationMs: shorts.durationMs })
      .from(shorts)
      .where(and(eq(shorts.id, id), eq(shorts.status, 'READY')));
    if (!row) throw shortNotFound();
    return row;
  }

  return {
    mediaBaseUrl,

    /**
     * Domain §9 ranking, from the stored scores (migration 0003, `ranking.ts`): score, then date, then id,
     * all descending, through the index. Page n+1 continues from page n's last key when it is known.
     */
    async feed(query: FeedQuery, viewer: number | null): Promise<FeedPage> {
      await ranking.ensureFresh();
      const keyword = query.keyword?.trim();
      const generation = ranking.generation();
      const cursor = !keyword && query.page > 1 ? ranking.cursorAfter(query.size, query.page - 1) : undefined;
      const conditions = [eq(shorts.status, 'READY')];
      if (keyword) {
        conditions.push(keywordFilter(keyword));
      }
      if (cursor) {
        conditions.push(
          sql`(${shortRanks.score}, ${shortRanks.createdAt}, ${shortRanks.shortId}) < (${cursor.score}::float8, ${cursor.createdAt}::timestamptz, ${cursor.id})`,
        );
      }
      type RankedPage = { rows: ShortRow[]; hasNext: boolean };
      let ranked = keyword ? undefined : ranking.cachedPage<RankedPage>(query.size, query.page);
      if (!ranked) {
        const rows = await db
          .select({
            ...shortColumns,
            rankScore: sql<string>`${shortRanks.score}::text`,
            rankCreatedAt: sql<string>`${shortRanks.createdAt}::text`,
          })
          .from(shortRanks)
          .innerJoin(shorts, eq(shorts.id, shortRanks.shortId))
          .innerJoin(customers, eq(customers.id, shorts.customerId))
          .where(and(...conditions))
          .orderBy(desc(shortRanks.score), desc(shortRanks.createdAt), desc(shortRanks.shortId))
          .limit(query.size + 1)
          .offset(cursor ? 0 : (query.page - 1) * query.size);
        const hasNext = rows.length > query.size;
        const page = rows.slice(0, query.size);
        const last = page.at(-1);
        if (!keyword && hasNext && last) {
          const end = { score: last.rankScore, createdAt: last.rankCreatedAt, id: last.id };
          ranking.remember(query.size, query.page, end, generation);
        }
        ranked = { rows: page, hasNext };
        if (!keyword) ranking.keepPage(query.size, query.page, ranked, generation);
      }
      const { rows: page, hasNext } = ranked;
      return {
        data: await personalise(page, viewer),
        page: query.page,
        size: query.size,
        hasNext,
        mediaBaseUrl,
      };
    },

    async one(id: number, viewer: number | null): Promise<ShortItem> {
      const rows = await db
        .select(shortColumns)
        .from(shorts)
        .innerJoin(customers, eq(customers.id, shorts.customerId))
        .where(and(eq(shorts.id, id), eq(shorts.status, 'READY')));
      if (rows.length === 0) throw shortNotFound();
      const [item] = await personalise(rows, viewer);
      return item as ShortItem;
    },

    async status(id: number, owner: number): Promise<StatusResult> {
      const [row] = await db
        .select({ id: shorts.id, status: shorts.status, failureReason: shorts.failureReason })
        .from(shorts)
        .where(and(eq(shorts.id, id), eq(shorts.customerId, owner)));
      if (!row) throw shortNotFound();
      return { shortsId: row.id, status: row.status, failureReason: row.failureReason };
    },

    /** Flat list, oldest first; a deleted comment shows only while it still has visible replies. */
    async comments(shortId: number, viewer: number | null): Promise<CommentItem[]> {
      await readyShort(shortId);
      const rows = await db
        .select({
          id: shortComments.id,
          parentId: shortComments.parentId,
          content: shortComments.content,
          deletedAt: shortComments.deletedAt,
          createdAt: shortComments.createdAt,
          customerId: shortComments.customerId,
          nickname: customers.nickname,
          profileImg: customers.profileImg,
        })
        .from(shortComments)
        .innerJoin(customers, eq(customers.id, shortComments.customerId))
        .where(eq(shortComments.shortId, shortId))
        .orderBy(asc(shortComments.id));
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
      return withTx(db, async (tx) => {
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
    },

    /** Own comments only; the row stays (soft delete) so its replies keep their place. */
    async deleteComment(shortId: number, commentId: number, caller: number): Promise<{ deleted: boolean }> {
      return withTx(db, async (tx) => {
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
    },

    /**
     * Same reaction again removes it; the other replaces it. The short's row lock serialises reactions on
     * one short, so the counters stay exact under concurrent clicks (domain §9).
     */
    async react(shortId: number, customerId: number, type: ReactionType): Promise<ReactionResult> {
      return withTx(db, async (tx) => {
        await lockReadyShort(tx, shortId);
        const [existing] = await tx
          .select({ type: shortReactions.type })
          .from(shortReactions)
          .where(and(eq(shortReactions.shortId, shortId), eq(shortReactions.customerId, customerId)));
        let like = 0;
        let dislike = 0;
        let mine: MyReaction;
        if (existing?.type === type) {
          await tx
            .delete(shortReactions)
            .where(and(eq(shortReactions.shortId, shortId), eq(shortReactions.customerId, customerId)));
          if (type === 'like') like = -1;
          else dislike = -1;
          mine = 'none';
        } else {
          if (existing) {
            await tx
              .update(shortReactions)
              .set({ type, createdAt: clock.now() })
              .where(and(eq(shortReactions.shortId, shortId), eq(shortReactions.customerId, customerId)));
            if (existing.type === 'like') like = -1;
            else dislike = -1;
          } else {
            await tx.insert(shortReactions).values({ shortId, customerId, type, createdAt: clock.now() });
          }
          if (type === 'like') like += 1;
          else dislike += 1;
          mine = type;
        }
        const [updated] = await tx
          .update(shorts)
          .set({
            likeCount: sql`greatest(0, ${shorts.likeCount} + ${like})`,
            dislikeCount: sql`greatest(0, ${shorts.dislikeCount} + ${dislike})`,
          })
          .where(eq(shorts.id, shortId))
          .returning({ likeCount: shorts.likeCount });
        return { likeCount: updated?.likeCount ?? 0, myReaction: mine };
      });
    },

    async subscribe(subscriber: number, target: number) {
      if (subscriber === target) throw unprocessable('SELF_SUBSCRIBE', SHORTS_MSG.selfSubscribe);
      const [exists] = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, target));
      if (!exists) throw notFound('CUSTOMER_NOT_FOUND', '사용자를 찾을 수 없습니다.');
      await db
        .insert(shortSubscriptions)
        .values({ subscriberId: subscriber, targetId: target, createdAt: clock.now() })
        .onConflictDoNothing();
      return { subscriptionStatus: 'SUBSCRIBED' as const, subscriberCount: await subscriberCount(target) };
    },

    async unsubscribe(subscriber: number, target: number) {
      await db
        .delete(shortSubscriptions)
        .where(and(eq(shortSubscriptions.subscriberId, subscriber), eq(shortSubscriptions.targetId, target)));
      return { subscriptionStatus: 'NOT_SUBSCRIBED' as const, subscriberCount: await subscriberCount(target) };
    },

    /** A logged-in viewer started playing: the server's clock, not the client's, starts the watch. */
    async openView(shortId: number, customerId: number) {
      await readyShort(shortId);
      const startedAt = clock.now();
      const [row] = await db
        .insert(shortViews)
        .values({ shortId, customerId, startedAt })
        .returning({ id: shortViews.id });
      return { viewId: row?.id ?? 0, startedAt: startedAt.toISOString() };
    },

    /** Watch points credited today (KST) and the daily cap. */
    async watchToday(customerId: number): Promise<{ todayTotalPoints: number; limit: number }> {
      const [daily] = await db
        .select({ total: shortWatchDaily.total })
        .from(shortWatchDaily)
        .where(and(eq(shortWatchDaily.customerId, customerId), eq(shortWatchDaily.kstDate, kstDate(clock.now()))));
      return { todayTotalPoints: daily?.total ?? 0, limit: LIMITS.dailyWatchPointLimit };
    },

    /**
     * Domain §7.2. Pays only for an unrewarded view that began at least `watchedSeconds` ago by the server
     * clock, never more than the video's length nor less than the minimum watch (3 s or half the short),
     * one reward per view, each real second once (claims of one customer never overlap in time: the
     * per-day row keeps where the paid time ends), 100 P per KST day. The per-day row is
     * locked first (always the same order), so concurrent claims queue and the cap holds exactly.
     */
    async earn(customerId: number, shortId: number, watchedSeconds: number): Promise<EarnResult> {
      const short = await readyShort(shortId);
      if (watchedSeconds * 1000 > short.durationMs) {
        throw unprocessable('WATCH_TOO_LONG', '영상 길이보다 긴 시청 시간은 적립할 수 없습니다.');
      }
      if (watchedSeconds < minimumWatchSeconds(short.durationMs / 1000)) {
        throw unprocessable('WATCH_TOO_SHORT', '영상을 조금 더 시청하면 포인트를 받을 수 있어요.');
      }
      const now = clock.now();
      const today = kstDate(now);
      const watchedMs = Math.ceil(watchedSeconds * 1000);
      const latestStart = new Date(now.getTime() - watchedMs);
      return withTx(db, async (tx) => {
        // Lock order (db/tx.ts): the customer first, then the per-day row and the view.
        await lockCustomer(tx, customerId);
        await tx.insert(shortWatchDaily).values({ customerId, kstDate: today, total: 0 }).onConflictDoNothing();
        const [daily] = await tx
          .select({ total: shortWatchDaily.total, watchedUntil: shortWatchDaily.watchedUntil })
          .from(shortWatchDaily)
          .where(and(eq(shortWatchDaily.customerId, customerId), eq(shortWatchDaily.kstDate, today)))
          .for('update');
        const before = daily?.total ?? 0;
        const room = LIMITS.dailyWatchPointLimit - before;
        if (room <= 0) {
          return {
            success: false,
            code: 'DAILY_LIMIT_REACHED',
            message: SHORTS_MSG.dailyLimit,
            earnedPoints: 0,
            todayTotalPoints: before,
          };
        }
        // Real seconds are paid once: views opened side by side cannot each claim the same wall-clock time.
        if (daily?.watchedUntil && daily.watchedUntil.getTime() > latestStart.getTime()) {
          throw unprocessable('NO_MATCHING_VIEW', '시청 기록이 확인되지 않아 적립할 수 없습니다.');
        }
        const [view] = await tx
          .select({ id: shortViews.id, startedAt: shortViews.startedAt })
          .from(shortViews)
          .where(
            and(
              eq(shortViews.customerId, customerId),
              eq(shortViews.shortId, shortId),
              isNull(shortViews.rewardedAt),
              lte(shortViews.startedAt, latestStart),
            ),
          )
          .orderBy(asc(shortViews.startedAt))
          .limit(1)
          .for('update', { skipLocked: true });
        if (!view) throw unprocessable('NO_MATCHING_VIEW', '시청 기록이 확인되지 않아 적립할 수 없습니다.');
        await tx.update(shortViews).set({ rewardedAt: now }).where(eq(shortViews.id, view.id));
        const earned = Math.min(room, watchPoints(watchedSeconds));
        // The paid seconds end here: the next claim must fit in time after them.
        const paidFrom = Math.max(view.startedAt.getTime(), daily?.watchedUntil?.getTime() ?? 0);
        const [after] = await tx
          .update(shortWatchDaily)
          .set({ total: sql`${shortWatchDaily.total} + ${earned}`, watchedUntil: new Date(paidFrom + watchedMs) })
          .where(
            and(
              eq(shortWatchDaily.customerId, customerId),
              eq(shortWatchDaily.kstDate, today),
              sql`${shortWatchDaily.total} + ${earned} <= ${LIMITS.dailyWatchPointLimit}`,
            ),
          )
          .returning({ total: shortWatchDaily.total });
        if (!after) throw new Error('daily watch total changed under its lock');
        await postPoints(tx, {
          customerId,
          amount: earned,
          reason: POINT_REASONS.shortsWatch,
          refType: 'short',
          refId: String(shortId),
          idempotencyKey: `shorts-watch:${view.id}`,
          at: now,
        });
        return {
          success: true,
          message: SHORTS_MSG.earned(earned),
          earnedPoints: earned,
          todayTotalPoints: after.total,
        };
      });
    },
  };

  /** Locks a playable short's row: comments and reactions on one short then run one at a time. */
  async function lockReadyShort(tx: Tx, shortId: number): Promise<void> {
    const [short] = await tx
      .select({ id: shorts.id })
      .from(shorts)
      .where(and(eq(shorts.id, shortId), eq(shorts.status, 'READY')))
      .for('update');
    if (!short) throw shortNotFound();
  }

  async function subscriberCount(target: number): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(shortSubscriptions)
      .where(eq(shortSubscriptions.targetId, target));
    return row?.n ?? 0;
  }
}

export type ShortsService = ReturnType<typeof createShortsService>;
