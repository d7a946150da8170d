import { z } from 'zod';
import { defineEndpoint, enveloped, envelopedWithCode } from './endpoint';
import { DB_INT_MAX, dbId, decimalInt, plainText } from './input';
import { LIMITS } from './limits';
import { shortItem, subscriptionStatus } from './shorts';

/* ---- Search: GET /api/public/shorts/search (docs/rules/shorts.md#S2) ---- */

export const searchQuery = z
  .object({
    q: z.string().max(100).optional(),
    limit: decimalInt(1, 50).default(8),
    lastId: dbId().optional(),
    lastDate: z.iso.datetime({ offset: true }).optional(),
    lastScore: decimalInt(0, DB_INT_MAX).optional(),
  })
  .refine(
    (q) =>
      [q.lastId, q.lastDate, q.lastScore].every((v) => v === undefined) ||
      [q.lastId, q.lastDate, q.lastScore].every((v) => v !== undefined),
    { message: 'lastId, lastDate and lastScore go together' },
  );
export type SearchQuery = z.infer<typeof searchQuery>;

/** A search hit: the short item without the viewer-specific fields, plus its (time-independent) score. */
export const searchItem = shortItem
  .pick({
    shortsId: true,
    videoName: true,
    thumbnail: true,
    shortsName: true,
    title: true,
    shortsExplain: true,
    content: true,
    date: true,
    customerId: true,
    customerNickname: true,
    nickname: true,
    profileImg: true,
    commentCount: true,
    likeCount: true,
  })
  .extend({ score: z.number().int() });
export type SearchItem = z.infer<typeof searchItem>;

export const searchCursor = z.object({ lastId: z.number().int(), lastDate: z.string(), lastScore: z.number().int() });
export type SearchCursor = z.infer<typeof searchCursor>;

export const searchPage = z.object({
  items: z.array(searchItem),
  nextCursor: searchCursor.nullable(),
  hasNext: z.boolean(),
  mediaBaseUrl: z.string(),
});
export type SearchPage = z.infer<typeof searchPage>;
/** Bare: `items`, `nextCursor` and `hasNext` at the top of the body, where every client reads them. */
export const searchResponse = searchPage;

/* ---- Channel profile: GET /api/shorts/profile (docs/rules/shorts.md#S8) ---- */

export const profileSort = z.enum(['latest', 'like', 'oldest']);
export type ProfileSort = z.infer<typeof profileSort>;

export const profileQuery = z.object({
  targetId: dbId().optional(),
  page: decimalInt(0, 10_000).default(0),
  sortBy: profileSort.default('latest'),
});
export type ProfileQuery = z.infer<typeof profileQuery>;

export const profileShort = z.object({
  shortsId: z.number().int(),
  thumbnail: z.string().nullable(),
  likeCount: z.number().int(),
});
export type ProfileShort = z.infer<typeof profileShort>;

/** Public channel data only: never a legal name, e-mail or account. */
export const profile = z.object({
  customerId: z.number().int(),
  profileImg: z.string().nullable(),
  customerNickname: z.string(),
  introduce: z.string(),
  subscriberCount: z.number().int(),
  videoCount: z.number().int(),
  isSubscribed: subscriptionStatus,
  shortsList: z.array(profileShort),
  hasNext: z.boolean(),
  mediaBaseUrl: z.string(),
});
export type Profile = z.infer<typeof profile>;
export const profileResponse = enveloped(profile);

/* ---- Profile edit: POST /api/shorts/profile/edit (multipart nickname, introduce, profileImg?) ---- */

export const profileEditFields = z.object({
  nickname: plainText().trim().min(1).max(LIMITS.nicknameMax),
  introduce: plainText().trim().max(LIMITS.introduceMax).default(''),
});
export type ProfileEditFields = z.infer<typeof profileEditFields>;

export const profileEditResult = z.object({
  customerId: z.number().int(),
  customerNickname: z.string(),
  introduce: z.string(),
  profileImg: z.string().nullable(),
});
export type ProfileEditResult = z.infer<typeof profileEditResult>;
/** Clients read `code: 200` in the body as success (then refresh the profile). */
export const profileEditResponse = envelopedWithCode(profileEditResult);

/* ---- Shorts my page: an overview and keyset-paged lists ---- */

export const channelItem = z.object({
  userId: z.number().int(),
  avatarUrl: z.string().nullable(),
  displayName: z.string(),
});
export type ChannelItem = z.infer<typeof channelItem>;

export const videoItem = z.object({
  videoId: z.number().int(),
  shortsId: z.number().int(),
  thumbnailUrl: z.string().nullable(),
  title: z.string(),
  content: z.string(),
  likeCount: z.number().int(),
  commentCount: z.number().int(),
  /** The customer's own latest comment on this video (commented list); null elsewhere. */
  context: z.string().nullable(),
});
export type VideoItem = z.infer<typeof videoItem>;

export const overviewQuery = z.object({ limit: decimalInt(1, 20).default(8) });

export const overview = z.object({
  header: channelItem,
  subscriptions: z.object({ items: z.array(channelItem), hasNext: z.boolean() }),
  likedVideos: z.object({ items: z.array(videoItem), hasNext: z.boolean() }),
  commentedVideos: z.object({ items: z.array(videoItem), hasNext: z.boolean() }),
  mediaBaseUrl: z.string(),
});
export type Overview = z.infer<typeof overview>;
/** Bare: `header`, `subscriptions`, `likedVideos`, `commentedVideos` at the top of the body. */
export const overviewResponse = overview;

/** `cursor` is opaque: the server's keyset position, base64url. */
export const listQuery = z.object({
  limit: decimalInt(1, 50).default(8),
  cursor: z.string().max(200).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    hasNext: z.boolean(),
    nextCursor: z.string().nullable(),
    mediaBaseUrl: z.string(),
  });
}
export const channelPage = pageOf(channelItem);
export type ChannelPage = z.infer<typeof channelPage>;
export const videoPage = pageOf(videoItem);
export type VideoPage = z.infer<typeof videoPage>;
/** Bare paged lists: `items`, `hasNext`, `nextCursor` at the top of the body. */
export const channelPageResponse = channelPage;
export const videoPageResponse = videoPage;

/* ---- Endpoints (docs/rules/api.md#A1) ---- */

const tags = ['shorts-discovery'];

export const discoveryEndpoints = {
  search: defineEndpoint({
    method: 'GET',
    path: '/api/public/shorts/search',
    query: searchQuery,
    response: searchResponse,
    /** A token hides the creators the searcher blocked (docs/rules/shorts.md#S13). */
    access: 'optional',
    summary: '쇼츠 검색 (제목, 설명, 해시태그, 닉네임, 초성)',
    tags,
  }),
  profile: defineEndpoint({
    method: 'GET',
    path: '/api/shorts/profile',
    query: profileQuery,
    response: profileResponse,
    access: 'customer',
    summary: '채널 프로필 (targetId 없으면 내 프로필; page 0부터, 12개씩)',
    tags,
  }),
  editProfile: defineEndpoint({
    method: 'POST',
    path: '/api/shorts/profile/edit',
    body: 'multipart',
    response: profileEditResponse,
    access: 'customer',
    summary: '내 프로필 수정 (multipart: nickname, introduce, profileImg?)',
    tags,
  }),
  overview: defineEndpoint({
    method: 'GET',
    path: '/api/shorts/mypage/overview',
    query: overviewQuery,
    response: overviewResponse,
    access: 'customer',
    summary: '쇼츠 마이페이지 요약',
    tags,
  }),
  subscriptions: defineEndpoint({
    method: 'GET',
    path: '/api/shorts/mypage/subscribe',
    query: listQuery,
    response: channelPageResponse,
    access: 'customer',
    summary: '구독한 채널',
    tags,
  }),
  liked: defineEndpoint({
    method: 'GET',
    path: '/api/shorts/mypage/all',
    query: listQuery,
    response: videoPageResponse,
    access: 'customer',
    summary: '좋아요 표시한 동영상',
    tags,
  }),
  commented: defineEndpoint({
    method: 'GET',
    path: '/api/shorts/mypage/comments',
    query: listQuery,
    response: videoPageResponse,
    access: 'customer',
    summary: '댓글 단 동영상',
    tags,
  }),
} as const;
