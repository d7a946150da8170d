import type { CommentItem, MyReaction, ReactionType, ShortItem } from '@ohgood/contract/shorts';

/** The requested video first, then newer ids ascending, then older ids (nearest first). */
export function orderAroundTarget(items: ShortItem[], target: ShortItem | null): ShortItem[] {
  if (!target) return items;
  const rest = items.filter((item) => item.shortsId !== target.shortsId);
  const newer = rest.filter((item) => item.shortsId > target.shortsId).sort((a, b) => a.shortsId - b.shortsId);
  const older = rest.filter((item) => item.shortsId < target.shortsId).sort((a, b) => b.shortsId - a.shortsId);
  return [target, ...newer, ...older];
}

/** Adds a page, skipping videos already in the current cycle. */
export function appendUnique(current: ShortItem[], page: ShortItem[]): ShortItem[] {
  const seen = new Set(current.map((item) => item.shortsId));
  return [...current, ...page.filter((item) => !seen.has(item.shortsId))];
}

/** More pages load when the viewer is within 3 slides of the end. */
export function shouldLoadMore(index: number, length: number): boolean {
  return length > 0 && index >= length - 3;
}

export type SwipeDirection = 'next' | 'prev' | null;

/** A vertical drag of more than 50 px moves one slide. */
export function swipeDirection(startY: number, endY: number, threshold = 50): SwipeDirection {
  const delta = startY - endY;
  if (delta > threshold) return 'next';
  if (delta < -threshold) return 'prev';
  return null;
}

/**
 * The reaction rule (docs/rules/shorts.md#S3), used when the server cannot be reached: same again removes, other
 * replaces.
 */
export function applyReaction(
  state: { likeCount: number; myReaction: MyReaction },
  type: ReactionType,
): { likeCount: number; myReaction: MyReaction } {
  const wasLike = state.myReaction === 'like';
  if (state.myReaction === type) {
    return { likeCount: Math.max(0, state.likeCount - (wasLike ? 1 : 0)), myReaction: 'none' };
  }
  const likeCount = type === 'like' ? state.likeCount + 1 : Math.max(0, state.likeCount - (wasLike ? 1 : 0));
  return { likeCount, myReaction: type };
}

export interface CommentNode extends CommentItem {
  replies: CommentItem[];
}

/** Replies are built client-side from gno; one level only (docs/rules/shorts.md#S4). */
export function buildCommentTree(comments: CommentItem[]): CommentNode[] {
  const roots = new Map<number, CommentNode>();
  for (const comment of comments) {
    if (comment.gno === 0) roots.set(comment.commentId, { ...comment, replies: [] });
  }
  for (const comment of comments) {
    if (comment.gno !== 0) roots.get(comment.gno)?.replies.push(comment);
  }
  return [...roots.values()];
}

/** The share link: opens the feed with this video first. */
export function shareLink(origin: string, shortsId: number): string {
  return `${origin}/shorts/feeds?shortsId=${shortsId}`;
}

/** Recording prefers webm vp9, then vp8, then mp4. */
export const RECORDER_TYPES = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm', 'video/mp4'] as const;

export function pickRecorderType(isSupported: (type: string) => boolean): string | undefined {
  return RECORDER_TYPES.find((type) => isSupported(type));
}
