import type { MyReaction, ShortItem, SubscriptionStatus } from '@ohgood/contract/shorts';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { customers, shortReactions, shortSubscriptions, shorts } from '../../db/schema';

/** A short joined with its creator, as the feed and the single-short read select it. */
export type ShortRow = {
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

/** The columns of a `ShortRow` (shorts inner-joined with customers on the creator). */
export const shortColumns = {
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

/**
 * The API items of `rows` as `viewer` sees them: myReaction and subscriptionStatus for a whole page in two
 * queries (no N+1); anonymous viewers get 'none' and NOT_SUBSCRIBED (docs/rules/shorts.md#S1).
 */
export async function toShortItems(db: Db, rows: ShortRow[], viewer: number | null): Promise<ShortItem[]> {
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
