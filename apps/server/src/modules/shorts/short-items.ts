import type { MyReaction, ShortItem, SubscriptionStatus } from '@ohgood/contract/shorts';
import { customers, shorts } from '../../db/schema';
import type { ViewerFacts, ViewerState } from './viewer-state';

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

/** The part of an item every viewer sees alike. */
export type PublicShortItem = Omit<ShortItem, 'myReaction' | 'subscriptionStatus'>;
/** The part that depends on who is looking. */
export type ViewerFields = Pick<ShortItem, 'myReaction' | 'subscriptionStatus'>;

export function publicItemOf(row: ShortRow): PublicShortItem {
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
    durationSeconds: row.durationMs / 1000,
  };
}

const NO_FACTS: ViewerFacts = { reactions: new Map<number, MyReaction>(), subscribed: new Set<number>() };

/**
 * What `viewer` knows about `rows`: myReaction and subscriptions for a whole page at once (no N+1), from the
 * viewer's remembered facts where known; anonymous viewers know nothing.
 */
export async function viewerFactsOf(
  viewerState: ViewerState,
  rows: ShortRow[],
  viewer: number | null,
): Promise<ViewerFacts> {
  if (viewer === null || rows.length === 0) return NO_FACTS;
  return viewerState.facts(
    viewer,
    rows.map((r) => r.id),
    rows.map((r) => r.customerId),
  );
}

/** myReaction and subscriptionStatus of one row (anonymous: 'none' and NOT_SUBSCRIBED, docs/rules/shorts.md#S1). */
export function viewerFieldsOf(row: ShortRow, viewer: number | null, facts: ViewerFacts): ViewerFields {
  let subscriptionStatus: SubscriptionStatus = 'NOT_SUBSCRIBED';
  if (viewer === row.customerId) subscriptionStatus = 'SELF';
  else if (facts.subscribed.has(row.customerId)) subscriptionStatus = 'SUBSCRIBED';
  return { myReaction: facts.reactions.get(row.id) ?? 'none', subscriptionStatus };
}

/** The API items of `rows` as `viewer` sees them. */
export async function toShortItems(
  viewerState: ViewerState,
  rows: ShortRow[],
  viewer: number | null,
): Promise<ShortItem[]> {
  const facts = await viewerFactsOf(viewerState, rows, viewer);
  return rows.map((row) => ({ ...publicItemOf(row), ...viewerFieldsOf(row, viewer, facts) }));
}
