import { QueryClient, QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { billKeys, useRepay } from '../features/bills/api/bills-api';
import { checkinKeys } from '../features/checkin/api/checkin-api';
import { mypageKeys } from '../features/mypage/api/mypage-api';
import { refreshAfterNotices } from '../features/notifications/use-live-notices';
import { paymentKeys, useFinalPayment } from '../features/payments/api/payments-api';
import { reportKeys } from '../features/report/api/report-api';
import { shortsKeys, useAddComment, useEarn } from '../features/shorts/api/shorts-api';
import { useBlock } from '../features/shorts-discovery/api/blocks-api';
import { discoveryKeys, useEditProfile, useSubscription } from '../features/shorts-discovery/api/discovery-api';
import { clearToken, setToken } from '../shared/auth-token';
import { invalidateAfter } from '../shared/query-keys';

/*
 * The invalidation rules, end to end through the real hooks and every feature's real key factory: a cache
 * holding one entry of every kind of data, a write, and then exactly the entries that write changed are
 * stale. A key renamed away from the shared registry, or a rule widened back to "everything", fails here.
 */

const MONTH = '2026-11';

/** One cached entry per kind of data the app reads, by a readable name. */
const CACHED: Record<string, QueryKey> = {
  billInfo: billKeys.info,
  billStatus: billKeys.status,
  billThisMonth: billKeys.thisMonth,
  paymentHistory: paymentKeys.history(MONTH),
  pointHistory: paymentKeys.points(MONTH),
  mypage: mypageKeys.summary,
  reportScore: reportKeys.score,
  reportAnalysis: reportKeys.analysis(3),
  reportAdvice: reportKeys.advice,
  checkinToday: checkinKeys.today,
  shortsFeed: shortsKeys.feed(null),
  shortsOne: shortsKeys.one(7),
  commentsOf7: shortsKeys.comments(7),
  commentsOf8: shortsKeys.comments(8),
  watchToday: shortsKeys.watchToday,
  profile: discoveryKeys.profile(null, 'latest'),
  otherProfile: discoveryKeys.profile(42, 'like'),
  ownProfile: discoveryKeys.ownProfile,
  myOverview: discoveryKeys.overview,
  mySubscriptions: discoveryKeys.subscriptions,
  myLiked: discoveryKeys.videos('all'),
  myCommented: discoveryKeys.videos('comments'),
  search: discoveryKeys.search('커피'),
  myBlocks: discoveryKeys.blocks,
};

let client: QueryClient;

function seeded(): QueryClient {
  const next = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  for (const key of Object.values(CACHED)) next.setQueryData(key, { cached: true });
  return next;
}

/** The names of the cached entries now marked stale by an invalidation. */
function invalidated(): string[] {
  return Object.entries(CACHED)
    .filter(([, key]) => client.getQueryState(key)?.isInvalidated)
    .map(([name]) => name)
    .sort();
}

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

function respond(body: unknown, status = 200) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })),
  );
}

/** Waits until every invalidation the write started has been applied (they run after it settles). */
async function settled(): Promise<void> {
  await vi.waitFor(() => expect(client.isMutating()).toBe(0));
  await new Promise<void>((resolve) => queueMicrotask(resolve));
}

beforeEach(() => {
  setToken('token');
  client = seeded();
});

afterEach(() => {
  clearToken();
  vi.unstubAllGlobals();
  client.clear();
});

const sorted = (names: string[]) => [...names].sort();
const BILLS = ['billInfo', 'billStatus', 'billThisMonth'];
const REPORT = ['reportScore', 'reportAnalysis', 'reportAdvice'];
/** Every cached view of shorts: the feed, comments, channels, the shorts my page's lists, search. */
const EVERY_SHORTS_VIEW = [
  'shortsFeed',
  'shortsOne',
  'commentsOf7',
  'commentsOf8',
  'watchToday',
  'profile',
  'otherProfile',
  'ownProfile',
  'myOverview',
  'mySubscriptions',
  'myLiked',
  'myCommented',
  'search',
];

describe('what each write refetches', () => {
  it('a payment: the bill, limit, both histories, the grade page and the report, nothing of shorts or check-in', async () => {
    respond({ success: true, result: { paymentId: 1, price: 5000, pointUsed: 0, pointEarned: 10, balance: 1 } });
    const { result } = renderHook(() => useFinalPayment(), { wrapper });
    await result.current.mutateAsync({ requestId: 'r1', point: 0, idempotencyKey: 'k1' });
    await settled();
    expect(invalidated()).toEqual(sorted([...BILLS, 'paymentHistory', 'pointHistory', 'mypage', ...REPORT]));
  });

  it('a failed payment refetches nothing', async () => {
    respond({ success: false, code: 'LIMIT_EXCEEDED', message: '한도 초과' }, 400);
    const { result } = renderHook(() => useFinalPayment(), { wrapper });
    await expect(result.current.mutateAsync({ requestId: 'r1', point: 0, idempotencyKey: 'k1' })).rejects.toThrow();
    await settled();
    expect(invalidated()).toEqual([]);
  });

  it('a repayment: bills, the payment list, the grade page and the report; not the point ledger', async () => {
    respond({ success: true, message: 'OK', data: {} });
    const { result } = renderHook(() => useRepay(), { wrapper });
    await result.current.mutateAsync([1, 2]);
    await settled();
    expect(invalidated()).toEqual(sorted([...BILLS, 'paymentHistory', 'mypage', ...REPORT]));
  });

  it('the attendance prize: check-in and every view of the point balance, not the bill or the lists', async () => {
    await invalidateAfter(client, 'attendance');
    expect(invalidated()).toEqual(sorted(['checkinToday', 'billThisMonth', 'pointHistory', 'mypage']));
  });

  it('watch points earned: the balance views and today’s watch total, nothing of the feed', async () => {
    respond({ success: true, earnedPoints: 5, todayTotalPoints: 5 });
    const { result } = renderHook(() => useEarn(), { wrapper });
    await result.current.mutateAsync({ shortsId: 7, watchedSeconds: 9 });
    await settled();
    expect(invalidated()).toEqual(sorted(['billThisMonth', 'pointHistory', 'mypage', 'watchToday']));
  });

  it('a (un)subscription: profiles and the shorts my page, even when it failed, never the feed being watched', async () => {
    respond({ success: false, code: 'NOT_FOUND', message: '없음' }, 404);
    const { result } = renderHook(() => useSubscription(), { wrapper });
    await expect(result.current.mutateAsync({ targetId: 42, subscribe: true })).rejects.toThrow();
    await settled();
    expect(invalidated()).toEqual(sorted(['profile', 'otherProfile', 'ownProfile', 'myOverview', 'mySubscriptions']));
  });

  it('a comment: that short’s comments and the my page lists, not another short’s comments', async () => {
    respond({ success: true, message: 'OK', data: {} });
    const { result } = renderHook(() => useAddComment(7), { wrapper });
    await result.current.mutateAsync({ content: '좋아요', gno: 0 });
    await settled();
    expect(invalidated()).toEqual(sorted(['commentsOf7', 'myOverview', 'myCommented']));
  });

  it('a block or unblock: every list of shorts and comments and the blocked list, nothing of payments', async () => {
    respond({ success: true, message: 'OK', data: { customerId: 42, blocked: false } });
    const { result } = renderHook(() => useBlock(), { wrapper });
    await result.current.mutateAsync({ customerId: 42, block: false });
    await settled();
    expect(invalidated()).toEqual(sorted([...EVERY_SHORTS_VIEW, 'myBlocks']));
  });

  it('a profile edit: everywhere the channel shows, nothing of payments', async () => {
    respond({ success: true, message: 'OK', data: {} });
    const { result } = renderHook(() => useEditProfile(), { wrapper });
    await result.current.mutateAsync(new FormData());
    expect(invalidated()).toEqual(sorted(EVERY_SHORTS_VIEW));
  });
});

describe('what a live notice refetches (a fact made in another tab, on another device or by the clock)', () => {
  it('a payment paid elsewhere: the home card, the limit, the point balance, as the payment itself does', async () => {
    await refreshAfterNotices(client, [{ kind: 'payment_completed' }]);
    expect(invalidated()).toEqual(sorted([...BILLS, 'paymentHistory', 'pointHistory', 'mypage', ...REPORT]));
  });

  it('a backlog of notices refreshes the union of their changes', async () => {
    await refreshAfterNotices(client, [{ kind: 'roulette_win' }, { kind: 'comment_reply' }, { kind: 'roulette_win' }]);
    expect(invalidated()).toEqual(sorted(['checkinToday', 'billThisMonth', 'pointHistory', 'mypage']));
  });

  it('a statement the clock moved: the bill views, the grade page and the score; a reply changes nothing', async () => {
    await refreshAfterNotices(client, [{ kind: 'comment_reply' }]);
    expect(invalidated()).toEqual([]);
    await refreshAfterNotices(client, [{ kind: 'overdue' }]);
    expect(invalidated()).toEqual(sorted([...BILLS, 'mypage', ...REPORT]));
  });

  it('a limit risk changed: the available amount and the limit card read again', async () => {
    await refreshAfterNotices(client, [{ kind: 'limit_changed' }]);
    expect(invalidated()).toEqual(sorted([...BILLS, 'mypage', ...REPORT]));
  });
});
