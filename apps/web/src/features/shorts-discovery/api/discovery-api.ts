import { shortsEndpoints } from '@ohgood/contract/shorts';
import type { ProfileSort, SearchCursor } from '@ohgood/contract/shorts-discovery';
import { discoveryEndpoints as api } from '@ohgood/contract/shorts-discovery';
import { callEndpoint } from '../../../shared/api-client';

/**
 * The calls of search, profiles and the shorts my page (docs/rules/api.md#A1); each body is the envelope, `.data` taken
 * here.
 */
export const discoveryApi = {
  search: (q: string, cursor: SearchCursor | null) =>
    callEndpoint(api.search, { query: { q, limit: 8, ...(cursor ?? {}) } }).then((body) => body.data),
  profile: (targetId: number | null, page: number, sortBy: ProfileSort) =>
    callEndpoint(api.profile, { query: { targetId: targetId ?? undefined, page, sortBy } }).then((body) => body.data),
  editProfile: (form: FormData) =>
    callEndpoint(api.editProfile, { body: form, timeout: 10_000 }).then((body) => body.data),
  subscribe: (targetId: number) => callEndpoint(shortsEndpoints.subscribe, { params: { targetId } }),
  unsubscribe: (targetId: number) => callEndpoint(shortsEndpoints.unsubscribe, { query: { targetId } }),
  overview: () => callEndpoint(api.overview, { query: { limit: 8 } }).then((body) => body.data),
  channels: (cursor: string | null) =>
    callEndpoint(api.subscriptions, { query: { limit: 8, cursor: cursor ?? undefined } }).then((body) => body.data),
  videos: (list: 'all' | 'comments', cursor: string | null) =>
    callEndpoint(list === 'all' ? api.liked : api.commented, {
      query: { limit: 8, cursor: cursor ?? undefined },
    }).then((body) => body.data),
};
