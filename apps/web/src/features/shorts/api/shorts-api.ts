import type {
  CommentItem,
  EarnResult,
  FeedPage,
  ReactionResult,
  ReactionType,
  ShortItem,
  StatusResult,
  UploadResult,
  WatchToday,
} from '@ohgood/contract/shorts';
import { api, apiUpload } from '../../../shared/api-client';

/** Spec §7 shorts calls; the client adds the token when held, so public feeds are personalised. */
export const shortsApi = {
  feed: (page: number, size = 10) => api.get<FeedPage>('/api/public/shorts/feeds', { query: { page, size } }),
  one: (id: number) => api.get<ShortItem & { mediaBaseUrl: string }>(`/api/public/shorts/${id}`),
  comments: (id: number) => api.get<{ data: CommentItem[] }>(`/api/public/shorts/feeds/${id}/comments`),
  addComment: (id: number, content: string, gno: number) =>
    api.post<CommentItem>(`/api/shorts/feeds/${id}/comments`, { content, gno }),
  deleteComment: (id: number, commentId: number) =>
    api.delete<{ deleted: boolean }>(`/api/shorts/feeds/${id}/comments/${commentId}/delete`),
  react: (id: number, type: ReactionType) =>
    api.post<ReactionResult>(`/api/shorts/feeds/${id}/reactions`, { shortsId: id, type }),
  subscribe: (targetId: number) => api.post<unknown>(`/api/shorts/subscribe/${targetId}`),
  unsubscribe: (targetId: number) => api.delete<unknown>('/api/shorts/mypage/subscription', { query: { targetId } }),
  openView: (id: number) => api.post<{ viewId: number }>(`/api/shorts/${id}/views`),
  watchToday: () => api.get<WatchToday>('/api/shorts/point/today'),
  earn: (shortsId: number, watchedSeconds: number) =>
    api.post<EarnResult>('/api/shorts/point/earn', { watchedSeconds, shortsId }),
  upload: (form: FormData) => apiUpload.post<UploadResult>('/api/upload', form),
  status: (id: number) => api.get<StatusResult>(`/api/shorts/${id}/status`),
};
