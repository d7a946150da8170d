import { z } from 'zod';
import { defineEndpoint, enveloped, envelopedWithCode } from './endpoint';
import { DB_INT_MAX, dbId, decimalInt, plainText } from './input';
import { LIMITS } from './limits';

export const reactionType = z.enum(['like', 'dislike']);
export type ReactionType = z.infer<typeof reactionType>;
export const myReaction = z.enum(['like', 'dislike', 'none']);
export type MyReaction = z.infer<typeof myReaction>;
export const subscriptionStatus = z.enum(['SUBSCRIBED', 'NOT_SUBSCRIBED', 'SELF']);
export type SubscriptionStatus = z.infer<typeof subscriptionStatus>;
/** HIDDEN: taken down by moderation (docs/rules/shorts.md#S12); every read path shows READY shorts only. */
export const PROCESSING_STATUSES = ['PROCESSING', 'READY', 'FAILED', 'HIDDEN'] as const;
export const processingStatus = z.enum(PROCESSING_STATUSES);
export type ProcessingStatus = z.infer<typeof processingStatus>;

/** A short video item, with both spellings of the renamed fields; media paths are relative. */
export const shortItem = z.object({
  shortsId: z.number().int(),
  videoName: z.string(),
  thumbnail: z.string().nullable(),
  shortsName: z.string(),
  title: z.string(),
  shortsExplain: z.string(),
  content: z.string(),
  date: z.string(),
  customerId: z.number().int(),
  customerNickname: z.string(),
  nickname: z.string(),
  profileImg: z.string().nullable(),
  commentCount: z.number().int(),
  likeCount: z.number().int(),
  myReaction,
  subscriptionStatus,
  /** Probed duration in seconds (the watch gauge needs it: required = duration − 1). */
  durationSeconds: z.number(),
});
export type ShortItem = z.infer<typeof shortItem>;

export const feedQuery = z.object({
  page: decimalInt(1, 10_000).default(1),
  size: decimalInt(1, 50).default(LIMITS.feedPageSize),
  keyword: plainText().max(100).optional(),
});
export type FeedQuery = z.infer<typeof feedQuery>;

export const feedPage = z.object({
  data: z.array(shortItem),
  page: z.number().int(),
  size: z.number().int(),
  hasNext: z.boolean(),
  /** Where relative media paths are joined (our addition). */
  mediaBaseUrl: z.string(),
});
export type FeedPage = z.infer<typeof feedPage>;
/** The API contract (docs/rules/api.md#A2): the body's `data` is the list; paging sits beside it. */
export const feedResponse = enveloped(z.array(shortItem)).extend(feedPage.omit({ data: true }).shape);
export type FeedResponse = z.infer<typeof feedResponse>;

/** The short itself, bare (docs/rules/api.md#A1). */
export const oneShortResponse = shortItem.extend({ mediaBaseUrl: z.string() });
export type OneShortResponse = z.infer<typeof oneShortResponse>;

export const idParams = z.object({ id: dbId() });
export const commentParams = z.object({
  id: dbId(),
  commentId: dbId(),
});

export const commentItem = z.object({
  commentId: z.number().int(),
  gno: z.number().int(),
  content: z.string(),
  nickname: z.string(),
  profileImg: z.string().nullable(),
  date: z.string(),
  deletable: z.boolean(),
  deleted: z.boolean(),
  customerId: z.number().int(),
});
export type CommentItem = z.infer<typeof commentItem>;
/** The API contract (docs/rules/api.md#A2): the body's `data` is the list. */
export const commentsResponse = enveloped(z.array(commentItem));
export type CommentsResponse = z.infer<typeof commentsResponse>;

export const createCommentRequest = z.object({
  content: plainText().trim().min(1).max(LIMITS.commentMax),
  gno: decimalInt(0, DB_INT_MAX).default(0),
});
export type CreateCommentRequest = z.infer<typeof createCommentRequest>;
export const createCommentResponse = enveloped(commentItem);
/** The original client's delete sends a customerId; it is ignored (docs/rules/money-and-time.md#T3). */
export const deleteCommentQuery = z.object({ customerId: z.string().optional() });
export const deleteCommentResponse = enveloped(z.object({ deleted: z.boolean() }));

export const reactionRequest = z.object({
  shortsId: dbId().optional(),
  type: reactionType,
});
export type ReactionRequest = z.infer<typeof reactionRequest>;
export const reactionResult = z.object({ likeCount: z.number().int(), myReaction });
export type ReactionResult = z.infer<typeof reactionResult>;
export const reactionResponse = enveloped(reactionResult);

export const targetParams = z.object({ targetId: dbId() });
export const targetQuery = z.object({ targetId: dbId() });
/** Clients of subscribe read `code: 200` in the body as success. */
export const subscriptionResponse = envelopedWithCode(
  z.object({ subscriptionStatus, subscriberCount: z.number().int() }),
);

export const viewResponse = enveloped(z.object({ viewId: z.number().int(), startedAt: z.string() }));

export const earnRequest = z.object({
  watchedSeconds: z.number().positive().max(3600),
  shortsId: dbId(),
});
export type EarnRequest = z.infer<typeof earnRequest>;
/**
 * docs/rules/points.md#R5–R6: `{success, earnedPoints, todayTotalPoints}`; at the daily cap success is false with a
 * code.
 */
export const earnResult = z.object({
  success: z.boolean(),
  /** The one refusal the earn call answers in its body (the day's cap); errors.ts declares it too. */
  code: z.literal('DAILY_LIMIT_REACHED').optional(),
  message: z.string(),
  earnedPoints: z.number().int(),
  todayTotalPoints: z.number().int(),
});
export type EarnResult = z.infer<typeof earnResult>;

/** Today's (KST) watch points, so the gauge can start greyed when the cap is already reached. */
export const watchToday = z.object({ todayTotalPoints: z.number().int(), limit: z.number().int() });
export type WatchToday = z.infer<typeof watchToday>;

export const uploadResult = z.object({ shortsId: z.number().int(), status: processingStatus, thumbnail: z.string() });
export type UploadResult = z.infer<typeof uploadResult>;
export const uploadResponse = enveloped(uploadResult);

export const statusResult = z.object({
  shortsId: z.number().int(),
  status: processingStatus,
  failureReason: z.string().nullable(),
});
export type StatusResult = z.infer<typeof statusResult>;
export const statusResponse = enveloped(statusResult);

export const watchTodayResponse = enveloped(watchToday);

const tags = ['shorts'];

export const shortsEndpoints = {
  publicFeed: defineEndpoint({
    method: 'GET',
    path: '/api/public/shorts/feeds',
    query: feedQuery,
    response: feedResponse,
    access: 'optional',
    summary: '쇼츠 피드',
    tags,
  }),
  feed: defineEndpoint({
    method: 'GET',
    path: '/api/shorts/feeds',
    query: feedQuery,
    response: feedResponse,
    access: 'customer',
    summary: '쇼츠 피드 (로그인)',
    tags,
  }),
  one: defineEndpoint({
    method: 'GET',
    path: '/api/public/shorts/:id',
    params: idParams,
    response: oneShortResponse,
    access: 'optional',
    summary: '쇼츠 한 편',
    tags,
  }),
  status: defineEndpoint({
    method: 'GET',
    path: '/api/shorts/:id/status',
    params: idParams,
    response: statusResponse,
    access: 'customer',
    summary: '내 영상 처리 상태',
    tags,
  }),
  comments: defineEndpoint({
    method: 'GET',
    path: '/api/public/shorts/feeds/:id/comments',
    params: idParams,
    response: commentsResponse,
    access: 'optional',
    summary: '댓글 목록',
    tags,
  }),
  addComment: defineEndpoint({
    method: 'POST',
    path: '/api/shorts/feeds/:id/comments',
    params: idParams,
    body: createCommentRequest,
    response: createCommentResponse,
    access: 'customer',
    summary: '댓글 작성',
    tags,
  }),
  deleteComment: defineEndpoint({
    method: 'DELETE',
    path: '/api/shorts/feeds/:id/comments/:commentId/delete',
    params: commentParams,
    query: deleteCommentQuery,
    response: deleteCommentResponse,
    access: 'customer',
    summary: '댓글 삭제 (본인)',
    tags,
  }),
  react: defineEndpoint({
    method: 'POST',
    path: '/api/shorts/feeds/:id/reactions',
    params: idParams,
    body: reactionRequest,
    response: reactionResponse,
    access: 'customer',
    summary: '좋아요 / 싫어요',
    tags,
  }),
  subscribe: defineEndpoint({
    method: 'POST',
    path: '/api/shorts/subscribe/:targetId',
    params: targetParams,
    response: subscriptionResponse,
    access: 'customer',
    summary: '구독',
    tags,
  }),
  unsubscribe: defineEndpoint({
    method: 'DELETE',
    path: '/api/shorts/mypage/subscription',
    query: targetQuery,
    response: subscriptionResponse,
    access: 'customer',
    summary: '구독 취소',
    tags,
  }),
  openView: defineEndpoint({
    method: 'POST',
    path: '/api/shorts/:id/views',
    params: idParams,
    response: viewResponse,
    access: 'customer',
    summary: '시청 시작',
    tags,
  }),
  watchToday: defineEndpoint({
    method: 'GET',
    path: '/api/shorts/point/today',
    response: watchTodayResponse,
    access: 'customer',
    summary: '오늘 받은 시청 포인트',
    tags,
  }),
  /** Bare `{success, earnedPoints, todayTotalPoints}`; at the daily cap `success: false` with a code. */
  earn: defineEndpoint({
    method: 'POST',
    path: '/api/shorts/point/earn',
    body: earnRequest,
    response: earnResult,
    access: 'customer',
    summary: '시청 포인트 적립',
    tags,
  }),
  upload: defineEndpoint({
    method: 'POST',
    path: '/api/upload',
    body: 'multipart',
    response: uploadResponse,
    access: 'customer',
    summary: '쇼츠 업로드 (multipart: video, thumbnail?, title, content)',
    tags,
  }),
} as const;
