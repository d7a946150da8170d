import type { MyReaction } from '@ohgood/contract/shorts';

/** Per-video reaction and like count cached while in the feed, cleared on leaving it. */
const KEY = 'shortsReactionCache';

export interface CachedReaction {
  likeCount: number;
  myReaction: MyReaction;
}

function readAll(): Record<string, CachedReaction> {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) ?? '{}') as Record<string, CachedReaction>;
  } catch {
    return {};
  }
}

export function cachedReaction(shortsId: number): CachedReaction | undefined {
  return readAll()[String(shortsId)];
}

export function cacheReaction(shortsId: number, value: CachedReaction): void {
  sessionStorage.setItem(KEY, JSON.stringify({ ...readAll(), [String(shortsId)]: value }));
}

export function clearReactionCache(): void {
  sessionStorage.removeItem(KEY);
}
