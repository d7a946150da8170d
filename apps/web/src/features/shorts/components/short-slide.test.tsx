import type { ShortItem } from '@ohgood/contract/shorts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { relativeTime } from '../../../shared/format';
import { ShortSlide, type SlideProps } from './short-slide';
import type { SlideActions } from './slide-details';

// Counts the renders of a slide's details: they call relativeTime once per render.
vi.mock('../../../shared/format', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../shared/format')>();
  return { ...actual, relativeTime: vi.fn(actual.relativeTime) };
});

const item: ShortItem = {
  shortsId: 7,
  videoName: 'demo/short-07.mp4',
  thumbnail: 'demo/short-07.jpg',
  shortsName: 'short-07.mp4',
  title: '오늘의 한 컷',
  shortsExplain: '설명',
  content: '설명',
  date: '2026-11-28T10:00:00+09:00',
  customerId: 3,
  customerNickname: '오굿',
  nickname: '오굿',
  profileImg: null,
  commentCount: 2,
  likeCount: 5,
  myReaction: 'none',
  subscriptionStatus: 'NOT_SUBSCRIBED',
  durationSeconds: 4,
};

const actions: SlideActions = {
  gate: () => true,
  react: () => undefined,
  subscribe: () => undefined,
  comments: () => undefined,
  share: () => undefined,
  report: () => undefined,
  toggleMute: () => undefined,
  limit: () => undefined,
};

const props = (over: Partial<SlideProps>): SlideProps => ({
  item,
  mediaBase: '/media/',
  offset: 1,
  activeReady: false,
  muted: true,
  unmuteOnTap: true,
  loggedIn: false,
  limitReached: false,
  likeCount: item.likeCount,
  myReaction: item.myReaction,
  subscription: item.subscriptionStatus,
  commentCount: item.commentCount,
  actions,
  ...over,
});

function renderSlide(first: SlideProps) {
  const client = new QueryClient();
  const wrap = (node: ReactNode) => (
    <QueryClientProvider client={client}>
      <MemoryRouter>{node}</MemoryRouter>
    </QueryClientProvider>
  );
  const view = render(wrap(<ShortSlide {...first} />));
  return { rerender: (next: SlideProps) => view.rerender(wrap(<ShortSlide {...next} />)) };
}

let frameCallbacks: Array<(now: number, metadata: { presentationTime: number }) => void>;
let playAnswer: () => Promise<void>;

beforeEach(() => {
  vi.mocked(relativeTime).mockClear();
  frameCallbacks = [];
  playAnswer = () => Promise.resolve();
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => playAnswer());
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
  vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
  Object.assign(HTMLVideoElement.prototype, {
    requestVideoFrameCallback(callback: (now: number, metadata: { presentationTime: number }) => void) {
      frameCallbacks.push(callback);
      return frameCallbacks.length;
    },
    cancelVideoFrameCallback() {},
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ShortSlide', () => {
  it('a swipe renders the player again, not the details; new details render them', () => {
    const slide = renderSlide(props({ offset: 1 }));
    expect(relativeTime).toHaveBeenCalledTimes(1);
    // Swiped to it, its frame shown, then swiped past it: only its place and the feed's readiness change.
    slide.rerender(props({ offset: 0 }));
    slide.rerender(props({ offset: 0, activeReady: true }));
    slide.rerender(props({ offset: -1, activeReady: false }));
    expect(relativeTime).toHaveBeenCalledTimes(1);
    slide.rerender(props({ offset: -1, likeCount: 6, myReaction: 'like' }));
    expect(relativeTime).toHaveBeenCalledTimes(2);
  });

  it('tells the feed it is ready at its first shown frame, not when it is asked to play', async () => {
    const onReady = vi.fn();
    const slide = renderSlide(props({ offset: 1, onReady }));
    slide.rerender(props({ offset: 0, onReady }));
    await act(async () => undefined);
    expect(onReady).not.toHaveBeenCalled();
    expect(frameCallbacks).toHaveLength(1);
    act(() => frameCallbacks[0]?.(performance.now(), { presentationTime: performance.now() }));
    expect(onReady).toHaveBeenCalledTimes(1);
  });

  it('is ready at once when the browser refuses to play it by itself', async () => {
    playAnswer = () => Promise.reject(new DOMException('autoplay refused', 'NotAllowedError'));
    const onReady = vi.fn();
    renderSlide(props({ offset: 0, onReady }));
    await act(async () => undefined);
    expect(onReady).toHaveBeenCalledTimes(1);
  });
});
