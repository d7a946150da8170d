import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { insertShorts } from '../../test/shorts-fixture';

let h: Harness;
let me: { token: string; customerId: number; emailId: string };
let creators: { token: string; customerId: number; emailId: string }[];
let ids: number[];

const LEGAL_NAME = '박실명노출금지';
const ACCOUNT = '11223344556677';

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  h.app.inject({ method, url, headers: bearer(me.token), ...(payload ? { payload } : {}) });

beforeAll(async () => {
  h = await createHarness();
  me = await h.signUp({ name: LEGAL_NAME, account: ACCOUNT });
  creators = await Promise.all(Array.from({ length: 10 }, () => h.signUp({ name: LEGAL_NAME, account: ACCOUNT })));
  const first = creators[0];
  if (!first) throw new Error('no creator');
  const base = Date.parse('2026-11-01T00:00:00Z');
  ids = await insertShorts(
    h.database.db,
    first.customerId,
    Array.from({ length: 11 }, (_, i) => ({ title: `영상 ${i}`, content: `설명 ${i}`, createdAt: new Date(base + i) })),
  );
});
afterAll(() => h.close());

type Video = { videoId: number; shortsId: number; context: string | null; title: string };
type ListPage<T> = { items: T[]; hasNext: boolean; nextCursor: string | null };

async function readAll<T>(path: string): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 20; guard++) {
    const res = await call('GET', `${path}?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    // Bare: items, hasNext and nextCursor at the top of the body.
    const page = res.json() as ListPage<T>;
    out.push(...page.items);
    if (!page.hasNext) return out;
    expect(page.nextCursor).toBeTypeOf('string');
    cursor = page.nextCursor;
  }
  throw new Error('too many pages');
}

describe('shorts my page', () => {
  it('lists liked videos newest-liked first over opaque cursors, without repeats', async () => {
    for (const id of ids.slice(0, 9)) {
      h.clock.advance(1000);
      expect((await call('POST', `/api/shorts/feeds/${id}/reactions`, { shortsId: id, type: 'like' })).statusCode).toBe(
        200,
      );
    }
    // A dislike is not a like.
    await call('POST', `/api/shorts/feeds/${ids[9]}/reactions`, { shortsId: ids[9], type: 'dislike' });
    const liked = await readAll<Video>('/api/shorts/mypage/all');
    expect(liked.map((v) => v.videoId)).toEqual(ids.slice(0, 9).reverse());
    expect(liked.every((v) => v.context === null && v.videoId === v.shortsId)).toBe(true);
  });

  it('lists commented videos once each with my latest comment as context', async () => {
    const [a, b] = ids;
    const comment = async (id: number | undefined, content: string) => {
      h.clock.advance(1000);
      const res = await call('POST', `/api/shorts/feeds/${id}/comments`, { content, gno: 0 });
      expect(res.statusCode).toBe(200);
      return res.json().data.commentId as number;
    };
    await comment(a, '첫 댓글');
    await comment(b, '다른 영상');
    await comment(a, '두 번째 댓글');
    const latest = await comment(a, '지울 댓글');
    const del = await call('DELETE', `/api/shorts/feeds/${a}/comments/${latest}/delete`);
    expect(del.statusCode).toBe(200);

    const overview = (await call('GET', '/api/shorts/mypage/overview?limit=8')).json();
    expect(overview.commentedVideos.items.map((v: Video) => [v.videoId, v.context])).toEqual([
      [a, '두 번째 댓글'],
      [b, '다른 영상'],
    ]);
    const all = await readAll<Video>('/api/shorts/mypage/comments');
    expect(all.map((v) => v.videoId)).toEqual([a, b]);
  });

  it('lists subscriptions, unsubscribes, and shows the header, with no private data anywhere', async () => {
    for (const c of creators) {
      h.clock.advance(1000);
      expect((await call('POST', `/api/shorts/subscribe/${c.customerId}`)).statusCode).toBe(200);
    }
    const subs = await readAll<{ userId: number; displayName: string }>('/api/shorts/mypage/subscribe');
    expect(subs.map((s) => s.userId)).toEqual(creators.map((c) => c.customerId).reverse());
    expect(subs.every((s) => /^사용자\d+$/.test(s.displayName))).toBe(true);

    const target = creators[3]?.customerId;
    const un = await call('DELETE', `/api/shorts/mypage/subscription?targetId=${target}`);
    expect(un.statusCode).toBe(200);
    expect(un.json().data.subscriptionStatus).toBe('NOT_SUBSCRIBED');
    const after = await readAll<{ userId: number }>('/api/shorts/mypage/subscribe');
    expect(after.map((s) => s.userId)).not.toContain(target);
    expect(after).toHaveLength(creators.length - 1);
    const profile = (await call('GET', `/api/shorts/profile?targetId=${target}`)).json().data;
    expect(profile.isSubscribed).toBe('NOT_SUBSCRIBED');

    const res = await call('GET', '/api/shorts/mypage/overview?limit=8');
    const overview = res.json();
    expect(overview.header).toMatchObject({ userId: me.customerId });
    expect(overview.header.displayName).toMatch(/^사용자\d+$/);
    expect(overview.subscriptions.items).toHaveLength(8);
    expect(overview.subscriptions.hasNext).toBe(true);
    expect(overview.likedVideos.items).toHaveLength(8);
    const bodies = [res.body];
    for (const path of ['subscribe', 'all', 'comments'])
      bodies.push((await call('GET', `/api/shorts/mypage/${path}`)).body);
    for (const body of bodies) {
      for (const secret of [LEGAL_NAME, ACCOUNT, me.emailId, ...creators.map((c) => c.emailId)]) {
        expect(body).not.toContain(secret);
      }
    }
  });

  it('refuses a forged cursor and anonymous callers', async () => {
    const bad = await call('GET', '/api/shorts/mypage/all?cursor=not-a-cursor');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('INVALID_CURSOR');
    const anonymous = await h.app.inject({ method: 'GET', url: '/api/shorts/mypage/overview' });
    expect(anonymous.statusCode).toBe(401);
  });
});
