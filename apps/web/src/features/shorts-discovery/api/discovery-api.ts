import type {
  ChannelPage,
  Overview,
  Profile,
  ProfileEditResult,
  ProfileSort,
  SearchCursor,
  SearchPage,
  VideoPage,
} from '@ohgood/contract/shorts-discovery';
import { api } from '../../../shared/api-client';

export type MypageList = 'subscribe' | 'all' | 'comments';

/** Spec §7 calls of search, profiles and the shorts my page. */
export const discoveryApi = {
  search: (q: string, cursor: SearchCursor | null) =>
    api.get<SearchPage>('/api/public/shorts/search', { query: { q, limit: 8, ...(cursor ?? {}) } }),
  profile: (targetId: number | null, page: number, sortBy: ProfileSort) =>
    api.get<Profile>('/api/shorts/profile', { query: { targetId, page, sortBy } }),
  editProfile: (form: FormData) => api.post<ProfileEditResult>('/api/shorts/profile/edit', form),
  subscribe: (targetId: number) => api.post<unknown>(`/api/shorts/subscribe/${targetId}`),
  unsubscribe: (targetId: number) => api.delete<unknown>('/api/shorts/mypage/subscription', { query: { targetId } }),
  overview: () => api.get<Overview>('/api/shorts/mypage/overview', { query: { limit: 8 } }),
  channels: (cursor: string | null) =>
    api.get<ChannelPage>('/api/shorts/mypage/subscribe', { query: { limit: 8, cursor } }),
  videos: (list: 'all' | 'comments', cursor: string | null) =>
    api.get<VideoPage>(`/api/shorts/mypage/${list}`, { query: { limit: 8, cursor } }),
};
