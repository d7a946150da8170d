import type { ProfileSort } from '@ohgood/contract/shorts-discovery';
import { useProfilePages } from '../api/discovery-api';

/** A channel's profile pages flattened: the profile (first page), its shorts so far and the media base. */
export function useProfileView(targetId: number | null, sortBy: ProfileSort) {
  const query = useProfilePages(targetId, sortBy);
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
