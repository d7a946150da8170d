import { shortsEndpoints as api, type ReactionType } from '@ohgood/contract/shorts';
import { callEndpoint } from '../../../shared/api-client';

/**
 * The shorts calls (docs/rules/api.md#A1); the client adds the token when held, so public feeds are personalised.
 * Feeds, the single short and earn are read as their bodies; `.data` is taken here, in sight, where the body is the
 * `{success, message, data}` envelope.
 */
export const shortsApi = {
  /** The body: `data` is the list, paging beside it. */
  feed: (page: number, size = 10) => callEndpoint(api.publicFeed, { query: { page, size } }),
  one: (id: number) => callEndpoint(api.one, { params: { id } }),
  /** The body: `data` is the list. */
  comments: (id: number) => callEndpoint(api.comments, { params: { id } }),
  addComment: (id: number, content: string, gno: number) =>
    callEndpoint(api.addComment, { params: { id }, body: { content, gno } }).then((body) => body.data),
  deleteComment: (id: number, commentId: number) =>
    callEndpoint(api.deleteComment, { params: { id, commentId } }).then((body) => body.data),
  react: (id: number, type: ReactionType) =>
    callEndpoint(api.react, { params: { id }, body: { shortsId: id, type } }).then((body) => body.data),
  subscribe: (targetId: number) => callEndpoint(api.subscribe, { params: { targetId } }).then((body) => body.data),
  unsubscribe: (targetId: number) => callEndpoint(api.unsubscribe, { query: { targetId } }).then((body) => body.data),
  openView: (id: number) => callEndpoint(api.openView, { params: { id } }).then((body) => body.data),
  watchToday: () => callEndpoint(api.watchToday).then((body) => body.data),
  /** Bare `{success, earnedPoints, todayTotalPoints}`; `success: false` (the daily cap) rejects with its code. */
  earn: (shortsId: number, watchedSeconds: number) => callEndpoint(api.earn, { body: { watchedSeconds, shortsId } }),
  upload: (form: FormData) => callEndpoint(api.upload, { body: form }).then((body) => body.data),
  status: (id: number) => callEndpoint(api.status, { params: { id } }).then((body) => body.data),
};
