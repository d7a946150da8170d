import { shortsEndpoints } from '@ohgood/contract/shorts';
import type { ProfileSort, SearchCursor } from '@ohgood/contract/shorts-discovery';
import { discoveryEndpoints as api } from '@ohgood/contract/shorts-discovery';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shared/api-client';
import { dataKeys, invalidateAfter } from '../../../shared/query-keys';

/** Page size of search and the my page's lists (docs/rules/api.md#A1). */
const PAGE = 8;

export type VideoList = 'all' | 'comments';

/** The discovery feature's keys (search, channels, the shorts my page) on the shared registry's prefixes. */
export const discoveryKeys = {
  search: (q: string) => [...dataKeys.search, q] as const,
  profile: (targetId: number | null, sortBy: ProfileSort) => [...dataKeys.profiles, targetId, sortBy] as const,
  /** The own profile's first page, read by the edit page when opened directly. */
  ownProfile: [...dataKeys.profiles, 'own'] as const,
  overview: dataKeys.myOverview,
  subscriptions: dataKeys.mySubscriptions,
  videos: (list: VideoList) => (list === 'all' ? dataKeys.myLiked : dataKeys.myCommented),
  blocks: dataKeys.myBlocks,
};

/* The calls (docs/rules/api.md#A1): search and the my page's bodies are bare; profile calls are enveloped (`.data`). */

const fetchProfile = (targetId: number | null, page: number, sortBy: ProfileSort) =>
  callEndpoint(api.profile, { query: { targetId: targetId ?? undefined, page, sortBy } }).then((body) => body.data);

/** Matches for `q`, 8 at a time by keyset cursor; nothing is asked for an empty query. */
export function useSearch(q: string) {
  return useInfiniteQuery({
    queryKey: discoveryKeys.search(q),
    queryFn: ({ pageParam }) => callEndpoint(api.search, { query: { q, limit: PAGE, ...(pageParam ?? {}) } }),
    initialPageParam: null as SearchCursor | null,
    getNextPageParam: (last) => (last.hasNext ? last.nextCursor : undefined),
    enabled: q !== '',
  });
}

/** A channel's profile (own without targetId), 12 shorts per 0-based page; a new sort starts at page 0. */
export function useProfilePages(targetId: number | null, sortBy: ProfileSort) {
  return useInfiniteQuery({
    queryKey: discoveryKeys.profile(targetId, sortBy),
    queryFn: ({ pageParam }) => fetchProfile(targetId, pageParam, sortBy),
    initialPageParam: 0,
    getNextPageParam: (last, _all, page) => (last.hasNext ? page + 1 : undefined),
  });
}

export function useOwnProfile(enabled: boolean) {
  return useQuery({ queryKey: discoveryKeys.ownProfile, queryFn: () => fetchProfile(null, 0, 'latest'), enabled });
}

export function useMyShortsOverview() {
  return useQuery({
    queryKey: discoveryKeys.overview,
    queryFn: () => callEndpoint(api.overview, { query: { limit: PAGE } }),
  });
}

export function useSubscriptions() {
  return useInfiniteQuery({
    queryKey: discoveryKeys.subscriptions,
    queryFn: ({ pageParam }) =>
      callEndpoint(api.subscriptions, { query: { limit: PAGE, cursor: pageParam ?? undefined } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.hasNext ? last.nextCursor : undefined),
  });
}

/** Liked ('all') or commented videos over opaque keyset cursors. */
export function useMyVideos(list: VideoList) {
  return useInfiniteQuery({
    queryKey: discoveryKeys.videos(list),
    queryFn: ({ pageParam }) =>
      callEndpoint(list === 'all' ? api.liked : api.commented, {
        query: { limit: PAGE, cursor: pageParam ?? undefined },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.hasNext ? last.nextCursor : undefined),
  });
}

/** Saves name, introduction and picture; resolves once every view of the channel has been refetched. */
export function useEditProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: FormData) =>
      callEndpoint(api.editProfile, { body: form, timeout: 10_000 }).then((body) => body.data),
    onSuccess: () => invalidateAfter(client, 'profile'),
  });
}

/** Subscribes or unsubscribes; counts and lists are refetched whatever the outcome (it may have landed). */
export function useSubscription() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ targetId, subscribe }: { targetId: number; subscribe: boolean }) =>
      subscribe
        ? callEndpoint(shortsEndpoints.subscribe, { params: { targetId } })
        : callEndpoint(shortsEndpoints.unsubscribe, { query: { targetId } }),
    onSettled: () => {
      void invalidateAfter(client, 'subscription');
    },
  });
}
