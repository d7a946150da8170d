import type { QueryClient, QueryKey } from '@tanstack/react-query';

/*
 * The shared key registry (ADR 0095). Every cached read lives under one of these prefixes; each feature's
 * api/ builds its own query-key factory on its prefixes, and a write in one feature names here what it
 * changes in others, so features never import each other's keys.
 */

/** Key prefixes, one per kind of data a screen shows. */
export const dataKeys = {
  /** Everything of the bills feature (the payment page, the home card). */
  bills: ['bills'],
  /** `GET /api/payment/info`: limit, balance, unpaid lines. */
  billInfo: ['bills', 'info'],
  /** `GET /api/bills`: statements, suspension. */
  billStatus: ['bills', 'status'],
  /** `GET /api/pay/this-month`: home's card (amount, points this month, point balance, ticker). */
  billThisMonth: ['bills', 'this-month'],
  /** `GET /api/payment/history?month=`: the payment list, the receipt's row. */
  paymentHistory: ['payments', 'history'],
  /** `GET /api/point/history?month=`: the point ledger. */
  pointHistory: ['payments', 'points'],
  /** `GET /api/mypage`: name, grade, grade points, account, points. */
  mypage: ['mypage'],
  /** Score, analysis and advice of the personal report. */
  report: ['report'],
  /** Whether today's attendance roulette was spun. */
  checkinToday: ['checkin', 'today'],
  /** The shorts feed, single shorts, watch-point status. */
  shorts: ['shorts'],
  /** A short's comments (the factory adds the short's id). */
  shortsComments: ['shorts', 'comments'],
  /** Channel profiles and their videos (own and others'). */
  profiles: ['shorts-discovery', 'profile'],
  /** The shorts my page: overview, subscriptions, liked and commented videos. */
  myShorts: ['shorts-discovery', 'mine'],
  myOverview: ['shorts-discovery', 'mine', 'overview'],
  mySubscriptions: ['shorts-discovery', 'mine', 'subscriptions'],
  myLiked: ['shorts-discovery', 'mine', 'liked'],
  myCommented: ['shorts-discovery', 'mine', 'commented'],
  /** The creators I blocked (on the shorts my page and channels), apart from the my page's other lists. */
  myBlocks: ['shorts-discovery', 'blocks'],
  /** Search results. */
  search: ['shorts-discovery', 'search'],
  /** The notification center: the list, the unread count, preferences. */
  notices: ['notifications'],
  noticeUnread: ['notifications', 'unread'],
  /** The autopay switch and its account. */
  autopay: ['bills', 'autopay'],
} as const satisfies Record<string, QueryKey>;

/** A prefix of the registry. */
export type DataKey = (typeof dataKeys)[keyof typeof dataKeys];

/*
 * What each write changes on the server, as the data it shows again. Kept exact: a write refetches what it
 * changed and nothing else (a payment used to refetch every query).
 */
export const changes = {
  /** A payment: this month's bill and limit, the lists, the points, the grade page, the report's figures. */
  payment: [
    dataKeys.billThisMonth,
    dataKeys.billInfo,
    dataKeys.billStatus,
    dataKeys.paymentHistory,
    dataKeys.pointHistory,
    dataKeys.mypage,
    dataKeys.report,
  ],
  /** A repayment: lines and statements paid, the limit freed, grade points earned, the score's inputs. */
  repayment: [dataKeys.bills, dataKeys.paymentHistory, dataKeys.mypage, dataKeys.report],
  /** An extension: the statement's due date and the score's extension factor. */
  extension: [dataKeys.bills, dataKeys.report],
  /**
   * The clock, a refund or risk moved a statement, the grade or the limit (issued, overdue, suspension lifted,
   * grade up or down, limit changed; heard of through a live notice): the bill views, the limit with them,
   * the grade page, the score.
   */
  statement: [dataKeys.bills, dataKeys.mypage, dataKeys.report],
  /** The attendance roulette credited its prize: today's check-in and every view of the point balance. */
  attendance: [dataKeys.checkinToday, dataKeys.billThisMonth, dataKeys.pointHistory, dataKeys.mypage],
  /** Watch points credited by the shorts feed. */
  watchPoints: [dataKeys.billThisMonth, dataKeys.pointHistory, dataKeys.mypage],
  /** A new short: the owner's channel (the feed loads afresh on every visit). */
  upload: [dataKeys.profiles],
  /** A (un)subscription: subscriber counts and buttons on profiles, the my page's subscriptions. */
  subscription: [dataKeys.profiles, dataKeys.myOverview, dataKeys.mySubscriptions],
  /** A like or dislike: like counts on profiles and search results, the my page's liked videos. */
  reaction: [dataKeys.profiles, dataKeys.search, dataKeys.myOverview, dataKeys.myLiked],
  /** A comment written or deleted (the short's own list is named by the caller). */
  comment: [dataKeys.myOverview, dataKeys.myCommented],
  /** A block or unblock: that creator's shorts and comments leave or come back wherever shorts show. */
  block: [dataKeys.shorts, dataKeys.profiles, dataKeys.myShorts, dataKeys.search, dataKeys.myBlocks],
  /** A new name, introduction or picture shows wherever the channel appears. */
  profile: [dataKeys.shorts, dataKeys.profiles, dataKeys.myShorts, dataKeys.search],
} as const satisfies Record<string, readonly DataKey[]>;

export type Change = keyof typeof changes;

/** Marks what a change touched as stale; the ones on screen refetch. `extra` names keys of this one write. */
export function invalidateAfter(client: QueryClient, change: Change, extra: readonly QueryKey[] = []): Promise<void> {
  return Promise.all([...changes[change], ...extra].map((queryKey) => client.invalidateQueries({ queryKey }))).then(
    () => undefined,
  );
}
