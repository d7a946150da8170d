import type { ProfileSort } from '@ohgood/contract/shorts-discovery';
import { useInfiniteQuery } from '@tanstack/react-query';
import { discoveryApi } from '../api/discovery-api';

/** A channel's profile, 12 shorts per 0-based page; a new sort starts again at page 0. */
export function useProfilePages(targetId: number | null, sortBy: ProfileSort) {
  const query = useInfiniteQuery({
    queryKey: ['shorts-profile', targetId, sortBy],
    queryFn: ({ pageParam }) => discoveryApi.profile(targetId, pageParam, sortBy),
    initialPageParam: 0,
    getNextPageParam: (last, _all, page) => (last.hasNext ? page + 1 : undefined),
  });
  const pages = query.data?.pages ?? [];
  const profile = pages[0] ?? null;
  const items = pages.flatMap((p) => p.shortsList);
  return { query, profile, items, base: profile?.mediaBaseUrl ?? '/media/' };
}

export const SORTS: { value: ProfileSort; label: string }[] = [
  { value: 'latest', label: '최신순' },
  { value: 'like', label: '인기순' },
  { value: 'oldest', label: '날짜순' },
];

export function targetIdOf(params: URLSearchParams): number | null {
  const id = Number(params.get('targetId'));
  return Number.isInteger(id) && id > 0 ? id : null;
}
