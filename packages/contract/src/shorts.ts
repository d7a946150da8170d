import { z } from 'zod';
import { envelope } from './envelope';
import { LIMITS } from './limits';

export { minimumWatchSeconds, requiredWatchSeconds, SHORTS_MSG, watchPoints } from './shorts-rules';

export const reactionType = z.enum(['like', 'dislike']);
export type ReactionType = z.infer<typeof reactionType>;
export const myReaction = z.enum(['like', 'dislike', 'none']);
export type MyReaction = z.infer<typeof myReaction>;
export const subscriptionStatus = z.enum(['SUBSCRIBED', 'NOT_SUBSCRIBED', 'SELF']);
export type SubscriptionStatus = z.infer<typeof subscriptionStatus>;
export const processingStatus = z.enum(['PROCESSING', 'READY', 'FAILED']);
export type ProcessingStatus = z.infer<typeof processingStatus>;

/** Spec §3 "Short video item", with both spellings of the renamed fields; media paths are relative. */
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
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  size: z.coerce.number().int().min(1).max(50).default(LIMITS.feedPageSize),
  keyword: z.string().max(100).optional(),
});
export type FeedQuery = z.infer<typeof feedQuery>;

export const feedPage = z.object({
  data: z.array(shortItem),
  page: z.number().int(),
  size: z.number().int(),
  hasNext: z.boolean(),
  mediaBaseUrl: z.string(),
});
export type FeedPage = z.infer<typeof feedPage>;
export const feedResponse = envelope(feedPage);

export const oneShortResponse = envelope(shortItem.extend({ mediaBaseUrl: z.string() }));

export const idParams = z.object({ id: z.coerce.number().int().positive() });
export const commentParams = z.object({
  id: z.coerce.number().int().positive(),
  commentId: z.coerce.number().int().positive(),
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
export const commentsResponse = envelope(z.object({ data: z.array(commentItem) }));

export const createCommentRequest = z.object({
  content: z.string().trim().min(1).max(LIMITS.commentMax),
  gno: z.coerce.number().int().min(0).default(0),
});
export type CreateCommentRequest = z.infer<typeof createCommentRequest>;
export const createCommentResponse = envelope(commentItem);
/** The spec's delete sends a customerId; it is ignored (domain §1). */
export const deleteCommentQuery = z.object({ customerId: z.string().optional() });
export const deleteCommentResponse = envelope(z.object({ deleted: z.boolean() }));

export const reactionRequest = z.object({
  shortsId: z.coerce.number().int().optional(),
  type: reactionType,
});
export type ReactionRequest = z.infer<typeof reactionRequest>;
export const reactionResult = z.object({ likeCount: z.number().int(), myReaction });
export type ReactionResult = z.infer<typeof reactionResult>;
export const reactionResponse = envelope(reactionResult);

export const targetParams = z.object({ targetId: z.coerce.number().int().positive() });
export const targetQuery = z.object({ targetId: z.coerce.number().int().positive() });
export const subscriptionResponse = envelope(z.object({ subscriptionStatus, subscriberCount: z.number().int() }));

export const viewResponse = envelope(z.object({ viewId: z.number().int(), startedAt: z.string() }));

export const earnRequest = z.object({
  watchedSeconds: z.number().positive().max(3600),
  shortsId: z.coerce.number().int().positive(),
});
export type EarnRequest = z.infer<typeof earnRequest>;
/** Domain §7.2: `{success, earnedPoints, todayTotalPoints}`; at the daily cap success is false with a code. */
export const earnResult = z.object({
  success: z.boolean(),
  code: z.string().optional(),
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
export const uploadResponse = envelope(uploadResult);

export const statusResult = z.object({
  shortsId: z.number().int(),
  status: processingStatus,
  failureReason: z.string().nullable(),
});
export type StatusResult = z.infer<typeof statusResult>;
export const statusResponse = envelope(statusResult);
