/** Types for swipe-walk.mjs (used by the swipe e2e). */
import type { Page } from '@playwright/test';

export interface SwipeTimes {
  times: { ms: number | null; shortsId: number | null }[];
  stalls: number;
}
export function swipeWalk(
  page: Page,
  options?: { swipes?: number; watchSeconds?: number; frameTimeoutMs?: number },
): Promise<SwipeTimes>;
export function swipeSummary(walk: SwipeTimes): {
  count: number;
  p50: number | null;
  p95: number | null;
  max: number | null;
  stalled: number;
};
export function swipeClipArgs(i: number, count: number, file: string): string[];
export function uploadShorts(base: string, token: string, files: string[], timeoutMs?: number): Promise<number[]>;
export function feedShortIds(base: string, token: string, pages?: number): Promise<Set<number>>;
