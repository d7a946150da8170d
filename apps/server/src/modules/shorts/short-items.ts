import type { MyReaction, ShortItem, SubscriptionStatus } from '@ohgood/contract/shorts';
import { customers, shorts } from '../../db/schema';
import type { ViewerState } from './viewer-state';

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
 * The API items of `rows` as `viewer` sees them: myReaction and subscriptionStatus for a whole page at once
 * (no N+1), from the viewer's remembered facts where known; anonymous viewers get 'none' and NOT_SUBSCRIBED
 * (docs/rules/shorts.md#S1).
 */
export async function toShortItems(
  viewerState: ViewerState,
  rows: ShortRow[],
  viewer: number | null,
): Promise<ShortItem[]> {
  const { reactions, subscribed } =
    viewer !== null && rows.length > 0
      ? await viewerState.facts(
          viewer,
          rows.map((r) => r.id),
          rows.map((r) => r.customerId),
        )
      : { reactions: new Map<number, MyReaction>(), subscribed: new Set<number>() };
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
