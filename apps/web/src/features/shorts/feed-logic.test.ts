import { mediaUrl } from '@ohgood/contract/media-url';
import type { ShortItem } from '@ohgood/contract/shorts';
import { requiredWatchSeconds, watchPoints } from '@ohgood/contract/shorts-rules';
import { describe, expect, it } from 'vitest';
import {
  appendUnique,
  applyReaction,
  buildCommentTree,
  orderAroundTarget,
  pickRecorderType,
  shareLink,
  shouldLoadMore,
  swipeDirection,
} from './feed-logic';

const short = (shortsId: number): ShortItem => ({
  shortsId,
  videoName: `shorts/${shortsId}.mp4`,
  thumbnail: null,
  shortsName: 't',
  title: 't',
  shortsExplain: 'c',
  content: 'c',
  date: '2026-11-22T03:00:00Z',
  customerId: 1,
  customerNickname: 'n',
  nickname: 'n',
  profileImg: null,
  commentCount: 0,
  likeCount: 0,
  myReaction: 'none',
  subscriptionStatus: 'NOT_SUBSCRIBED',
  durationSeconds: 8,
});

describe('feed order with ?shortsId', () => {
  it('puts the target first, then newer ids ascending, then older ids', () => {
    const page = [9, 3, 7, 5, 12, 1].map(short);
    const ordered = orderAroundTarget(page, short(5)).map((s) => s.shortsId);
    expect(ordered).toEqual([5, 7, 9, 12, 3, 1]);
  });
  it('keeps the ranked order without a target and adds only unseen videos', () => {
    expect(orderAroundTarget([3, 1].map(short), null).map((s) => s.shortsId)).toEqual([3, 1]);
    expect(appendUnique([1, 2].map(short), [2, 3].map(short)).map((s) => s.shortsId)).toEqual([1, 2, 3]);
  });
  it('loads more within 3 slides of the end', () => {
    expect(shouldLoadMore(6, 10)).toBe(false);
    expect(shouldLoadMore(7, 10)).toBe(true);
    expect(shouldLoadMore(0, 0)).toBe(false);
  });
});

describe('gestures', () => {
  it('needs a swipe over 50 px', () => {
    expect(swipeDirection(400, 351)).toBeNull();
    expect(swipeDirection(400, 340)).toBe('next');
    expect(swipeDirection(300, 360)).toBe('prev');
  });
});

describe('reactions applied locally (S3)', () => {
  it('same again removes (floor 0); the other replaces', () => {
    expect(applyReaction({ likeCount: 3, myReaction: 'like' }, 'like')).toEqual({ likeCount: 2, myReaction: 'none' });
    expect(applyReaction({ likeCount: 0, myReaction: 'like' }, 'like')).toEqual({ likeCount: 0, myReaction: 'none' });
    expect(applyReaction({ likeCount: 3, myReaction: 'like' }, 'dislike')).toEqual({
      likeCount: 2,
      myReaction: 'dislike',
    });
    expect(applyReaction({ likeCount: 3, myReaction: 'dislike' }, 'like')).toEqual({
      likeCount: 4,
      myReaction: 'like',
    });
    expect(applyReaction({ likeCount: 3, myReaction: 'none' }, 'dislike')).toEqual({
      likeCount: 3,
      myReaction: 'dislike',
    });
  });
});

describe('comments tree', () => {
  it('nests replies under their top-level comment, one level only', () => {
    const c = (commentId: number, gno: number) => ({
      commentId,
      gno,
      content: 'x',
      nickname: 'n',
      profileImg: null,
      date: '',
      deletable: false,
      deleted: false,
      customerId: 1,
    });
    const tree = buildCommentTree([c(1, 0), c(2, 1), c(3, 0), c(4, 1)]);
    expect(tree.map((n) => [n.commentId, n.replies.map((r) => r.commentId)])).toEqual([
      [1, [2, 4]],
      [3, []],
    ]);
  });
});

describe('media and links', () => {
  it('joins relative media paths to the base, leaving absolute ones alone', () => {
    expect(mediaUrl('/media/', 'shorts/a.mp4')).toBe('/media/shorts/a.mp4');
    expect(mediaUrl('https://cdn.example.com/m', 'shorts/a.mp4')).toBe('https://cdn.example.com/m/shorts/a.mp4');
    expect(mediaUrl('/media/', 'blob:abc')).toBe('blob:abc');
    expect(mediaUrl('/media/', null)).toBeUndefined();
  });
  it('shares a link that opens the feed at the video', () => {
    expect(shareLink('https://ohgood.kr', 42)).toBe('https://ohgood.kr/shorts/feeds?shortsId=42');
  });
  it('prefers webm vp9, then vp8, then mp4 for recording', () => {
    expect(pickRecorderType(() => true)).toBe('video/webm;codecs=vp9');
    expect(pickRecorderType((t) => t !== 'video/webm;codecs=vp9')).toBe('video/webm;codecs=vp8');
    expect(pickRecorderType((t) => t === 'video/mp4')).toBe('video/mp4');
    expect(pickRecorderType(() => false)).toBeUndefined();
  });
});

describe('watch rules shared with the server', () => {
  it('requires duration − 1 s (at least 1, default 10) and pays max(1, round(s × 10 / 60))', () => {
    expect(requiredWatchSeconds(8)).toBe(7);
    expect(requiredWatchSeconds(1.5)).toBe(1);
    expect(requiredWatchSeconds(0)).toBe(10);
    expect(watchPoints(7)).toBe(1);
    expect(watchPoints(45)).toBe(8);
    expect(watchPoints(60)).toBe(10);
  });
});
