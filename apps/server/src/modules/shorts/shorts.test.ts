import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kstDate } from '@ohgood/contract/kst';
import { watchPoints } from '@ohgood/contract/shorts-rules';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, pointLedger, shortReactions, shortSubscriptions, shorts, shortViews } from '../../db/schema';
import type { Tx } from '../../db/tx';
import { deferred } from '../../test/deferred';
import { eventsOf } from '../../test/domain-event-rows';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { lockWaiters } from '../../test/lock-waits';
import { makeVideo, uploadShort } from '../../test/media';
import { insertShorts } from '../../test/shorts-fixture';

let h: Harness;
let work: string;
let creator: { token: string; customerId: number };
let viewer: { token: string; customerId: number };
let clip: string;
let longClip: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ohgood-shorts-test-'));
  h = await createHarness({ config: { MEDIA_DIR: join(work, 'media') } });
  [creator, viewer] = await Promise.all([h.signUp(), h.signUp()]);
  [clip, longClip] = await Promise.all([
    makeVideo(work, 'clip.mp4', { seconds: 2 }),
    makeVideo(work, 'long.mp4', { seconds: 50, fps: 2, size: '32x32', audio: false }),
  ]);
});
afterAll(async () => {
  await h.close();
  rmSync(work, { recursive: true, force: true });
});

const get = (url: string, token?: string) => h.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
const post = (url: string, token: string, payload?: object) =>
  h.app.inject({ method: 'POST', url, headers: bearer(token), payload: payload ?? {} });
const react = (id: number, token: string, type: 'like' | 'dislike') =>
  post(`/api/shorts/feeds/${id}/reactions`, token, { shortsId: id, type });

describe('feed', () => {
  let plain: number;
  let liked: number;
  let tagged: number;

  beforeAll(async () => {
    plain = await uploadShort(h, creator.token, clip, { title: '그냥 영상', content: '설명' });
    liked = await uploadShort(h, creator.token, clip, { title: '인기 영상', content: '좋아요 많은 설명' });
    tagged = await uploadShort(h, creator.token, clip, { title: '태그 영상', content: '오늘의 #커피' });
    const fans = await Promise.all([h.signUp(), h.signUp(), h.signUp()]);
    for (const fan of fans) expect((await react(liked, fan.token, 'like')).statusCode).toBe(200);
  });

  it('ranks by likes, comments, #tag and freshness (S1) and pages 1-based', async () => {
    const res = await get('/api/public/shorts/feeds?page=1&size=10');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    const ids = body.data.map((s: { shortsId: number }) => s.shortsId);
    // 1.5·ln4 ≈ 2.08 beats 1.2 for the tag; same age, so the plain one is last.
    expect(ids).toEqual([liked, tagged, plain]);
    expect(body.hasNext).toBe(false);
    expect(body.mediaBaseUrl).toBe('/media/');
    const two = await get('/api/public/shorts/feeds?page=2&size=2');
    expect(two.json().data.map((s: { shortsId: number }) => s.shortsId)).toEqual([plain]);
    const first = await get('/api/public/shorts/feeds?page=1&size=2');
    expect(first.json().hasNext).toBe(true);
  });

  it('lets freshness win over old popularity as time passes', async () => {
    const tenDays = 10 * 24 * 3600_000;
    h.clock.advance(tenDays);
    try {
      const newcomer = await h.signUp(); // tokens live 12 h, so sign in at the new time
      const fresh = await uploadShort(h, newcomer.token, clip, { title: '새 영상', content: '방금' });
      const ids = (await get('/api/public/shorts/feeds')).json().data.map((s: { shortsId: number }) => s.shortsId);
      expect(ids[0]).toBe(fresh);
      expect(ids.slice(1)).toEqual([liked, tagged, plain]);
    } finally {
      h.clock.advance(-tenDays);
    }
  });

  it('personalises with a token: myReaction and subscriptionStatus (SELF for own videos)', async () => {
    const anonymous = (await get(`/api/public/shorts/${liked}`)).json();
    expect(anonymous).toMatchObject({ myReaction: 'none', subscriptionStatus: 'NOT_SUBSCRIBED', likeCount: 3 });
    await react(liked, viewer.token, 'dislike');
    await post(`/api/shorts/subscribe/${creator.customerId}`, viewer.token);
    const mine = (await get('/api/shorts/feeds', viewer.token)).json().data;
    const item = mine.find((s: { shortsId: number }) => s.shortsId === liked);
    expect(item).toMatchObject({ myReaction: 'dislike', subscriptionStatus: 'SUBSCRIBED', likeCount: 3 });
    const own = (await get(`/api/public/shorts/feeds`, creator.token)).json().data;
    const ownItems = own.filter((s: { customerId: number }) => s.customerId === creator.customerId);
    expect(ownItems.length).toBeGreaterThan(0);
    expect(ownItems.every((s: { subscriptionStatus: string }) => s.subscriptionStatus === 'SELF')).toBe(true);
    expect((await get('/api/shorts/feeds')).statusCode).toBe(401);
    await react(liked, viewer.token, 'dislike');
  });

  it('filters by keyword in title, content or nickname, with LIKE wildcards taken literally', async () => {
    const percent = await uploadShort(h, creator.token, clip, { title: '할인 100% 후기', content: '정말' });
    const byKeyword = async (keyword: string) =>
      (await get(`/api/public/shorts/feeds?keyword=${encodeURIComponent(keyword)}`))
        .json()
        .data.map((s: { shortsId: number }) => s.shortsId);
    expect(await byKeyword('100%')).toEqual([percent]);
    expect(await byKeyword('%')).toEqual([percent]);
    expect(await byKeyword('#커피')).toEqual([tagged]);
    expect(await byKeyword('인기')).toEqual([liked]);
  });

  it('returns 404 for an unknown short', async () => {
    expect((await get('/api/public/shorts/999999')).statusCode).toBe(404);
  });
});

describe('reactions', () => {
  let id: number;
  beforeAll(async () => {
    id = await uploadShort(h, creator.token, clip, { title: '반응 영상', content: '반응' });
  });

  it('toggles: same again removes, the other replaces; dislikes never show in likeCount', async () => {
    expect((await react(id, viewer.token, 'like')).json().data).toEqual({ likeCount: 1, myReaction: 'like' });
    expect((await react(id, viewer.token, 'like')).json().data).toEqual({ likeCount: 0, myReaction: 'none' });
    expect((await react(id, viewer.token, 'dislike')).json().data).toEqual({ likeCount: 0, myReaction: 'dislike' });
    expect((await react(id, viewer.token, 'like')).json().data).toEqual({ likeCount: 1, myReaction: 'like' });
    expect((await react(id, viewer.token, 'dislike')).json().data).toEqual({ likeCount: 0, myReaction: 'dislike' });
    await react(id, viewer.token, 'dislike');
  });

  it('keeps likeCount exact under concurrent clicks from many users', async () => {
    const users = await Promise.all(Array.from({ length: 12 }, () => h.signUp()));
    const results = await Promise.all(users.map((u) => react(id, u.token, 'like')));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    const [row] = await h.database.db.select().from(shorts).where(eq(shorts.id, id));
    expect(row?.likeCount).toBe(12);
    const counts = results.map((r) => r.json().data.likeCount).sort((a: number, b: number) => a - b);
    expect(counts).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  it('keeps one reaction per customer when one customer clicks many times at once', async () => {
    const before = (await get(`/api/public/shorts/${id}`)).json().likeCount as number;
    const results = await Promise.all(Array.from({ length: 7 }, () => react(id, viewer.token, 'like')));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    // Seven toggles from 'none' end on 'like'.
    const rows = await h.database.db
      .select()
      .from(shortReactions)
      .where(and(eq(shortReactions.shortId, id), eq(shortReactions.customerId, viewer.customerId)));
    expect(rows.map((r) => r.type)).toEqual(['like']);
    const [row] = await h.database.db.select().from(shorts).where(eq(shorts.id, id));
    const [likes] = await h.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(shortReactions)
      .where(and(eq(shortReactions.shortId, id), eq(shortReactions.type, 'like')));
    expect(row?.likeCount).toBe(before + 1);
    expect(row?.likeCount).toBe(likes?.n);
  });

  it('needs a login and a valid type', async () => {
    const anon = await h.app.inject({
      method: 'POST',
      url: `/api/shorts/feeds/${id}/reactions`,
      payload: { type: 'like' },
    });
    expect(anon.statusCode).toBe(401);
    expect((await post(`/api/shorts/feeds/${id}/reactions`, viewer.token, { type: 'love' })).statusCode).toBe(400);
  });
});

describe('subscriptions', () => {
  it('refuses subscribing to oneself with the domain message', async () => {
    const res = await post(`/api/shorts/subscribe/${creator.customerId}`, creator.token);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('자기 자신은 구독할 수 없습니다.');
  });

  it('stores one row under concurrent subscribes and counts subscribers exactly', async () => {
    const fan = await h.signUp();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => post(`/api/shorts/subscribe/${creator.customerId}`, fan.token)),
    );
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    const rows = await h.database.db
      .select()
      .from(shortSubscriptions)
      .where(
        and(eq(shortSubscriptions.subscriberId, fan.customerId), eq(shortSubscriptions.targetId, creator.customerId)),
      );
    expect(rows).toHaveLength(1);
    const total = await h.database.db
      .select()
      .from(shortSubscriptions)
      .where(eq(shortSubscriptions.targetId, creator.customerId));
    expect(results.at(-1)?.json().data.subscriberCount).toBe(total.length);

    const off = await h.app.inject({
      method: 'DELETE',
      url: `/api/shorts/mypage/subscription?targetId=${creator.customerId}`,
      headers: bearer(fan.token),
    });
    expect(off.json().data).toMatchObject({ subscriptionStatus: 'NOT_SUBSCRIBED', subscriberCount: total.length - 1 });
  });

  it('returns 404 for an unknown creator', async () => {
    expect((await post('/api/shorts/subscribe/987654', viewer.token)).statusCode).toBe(404);
  });
});

describe('comments', () => {
  let id: number;
  let other: number;
  beforeAll(async () => {
    id = await uploadShort(h, creator.token, clip, { title: '댓글 영상', content: '댓글' });
    other = await uploadShort(h, creator.token, clip, { title: '다른 영상', content: '다른' });
  });
  const comment = (shortId: number, token: string, content: string, gno = 0) =>
    post(`/api/shorts/feeds/${shortId}/comments`, token, { content, gno });
  const list = async (shortId: number, token?: string) =>
    (await get(`/api/public/shorts/feeds/${shortId}/comments`, token)).json().data as Array<{
      commentId: number;
      gno: number;
      content: string;
      deletable: boolean;
      deleted: boolean;
    }>;
  const del = (shortId: number, commentId: number, token: string, query = '') =>
    h.app.inject({
      method: 'DELETE',
      url: `/api/shorts/feeds/${shortId}/comments/${commentId}/delete${query}`,
      headers: bearer(token),
    });

  it('validates length 1–300 after trimming', async () => {
    expect((await comment(id, viewer.token, '   ')).statusCode).toBe(400);
    expect((await comment(id, viewer.token, '가'.repeat(301))).statusCode).toBe(400);
    const ok = await comment(id, viewer.token, ` ${'가'.repeat(300)} `);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.content).toHaveLength(300);
    await del(id, ok.json().data.commentId, viewer.token);
  });

  it('allows one reply level on the same short only', async () => {
    const top = (await comment(id, viewer.token, '첫 댓글')).json().data;
    const reply = await comment(id, creator.token, '@닉네임 답글', top.commentId);
    expect(reply.statusCode).toBe(200);
    expect(reply.json().data.gno).toBe(top.commentId);
    // The answer shows the author as the list will.
    const [author] = await h.database.db
      .select({ nickname: customers.nickname })
      .from(customers)
      .where(eq(customers.id, creator.customerId));
    expect(reply.json().data).toMatchObject({ nickname: author?.nickname, customerId: creator.customerId });
    expect(reply.json().data.nickname).not.toBe('');
    const deeper = await comment(id, viewer.token, '답글의 답글', reply.json().data.commentId);
    expect(deeper.statusCode).toBe(422);
    expect(deeper.json().code).toBe('REPLY_DEPTH');
    const elsewhere = await comment(other, viewer.token, '다른 영상에', top.commentId);
    expect(elsewhere.statusCode).toBe(422);
  });

  it('deletes own comments only, ignoring a customerId in the query; keeps a parent with replies as a placeholder', async () => {
    const parent = (await comment(other, viewer.token, '부모 댓글')).json().data;
    const reply = (await comment(other, creator.token, '자식 답글', parent.commentId)).json().data;
    const lone = (await comment(other, viewer.token, '혼자 댓글')).json().data;
    expect((await get(`/api/public/shorts/${other}`)).json().commentCount).toBe(3);

    const listed = await list(other, viewer.token);
    expect(listed.find((c) => c.commentId === parent.commentId)?.deletable).toBe(true);
    expect(listed.find((c) => c.commentId === reply.commentId)?.deletable).toBe(false);
    expect((await list(other)).every((c) => !c.deletable)).toBe(true);

    const stolen = await del(other, parent.commentId, creator.token, `?customerId=${viewer.customerId}`);
    expect(stolen.statusCode).toBe(403);

    expect((await del(other, parent.commentId, viewer.token)).json().data).toEqual({ deleted: true });
    expect((await del(other, lone.commentId, viewer.token)).statusCode).toBe(200);
    expect((await del(other, lone.commentId, viewer.token)).statusCode).toBe(404);

    const after = await list(other, viewer.token);
    expect(after.map((c) => c.commentId)).toEqual([parent.commentId, reply.commentId]);
    expect(after[0]).toMatchObject({ content: '삭제된 댓글입니다.', deleted: true, deletable: false });
    expect((await get(`/api/public/shorts/${other}`)).json().commentCount).toBe(1);

    // Once its last reply goes, the placeholder goes too.
    await del(other, reply.commentId, creator.token);
    expect(await list(other)).toEqual([]);
    expect((await get(`/api/public/shorts/${other}`)).json().commentCount).toBe(0);
  });

  it('needs a login to comment', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/shorts/feeds/${id}/comments`,
      payload: { content: 'x', gno: 0 },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('points for watching (R5, R6)', () => {
  let id: number;
  beforeAll(async () => {
    id = await uploadShort(h, creator.token, longClip, { title: '50초 영상', content: '길게' });
  });
  const view = (token: string) => post(`/api/shorts/${id}/views`, token);
  const earn = (token: string, watchedSeconds: number, shortsId = id) =>
    post('/api/shorts/point/earn', token, { watchedSeconds, shortsId });
  /**
   * Another money path of the customer: a transaction holding their row lock from the time this resolves
   * until `release`, which runs `beforeCommit` in it first and resolves once it committed.
   */
  const holdCustomerRow = async (customerId: number, beforeCommit?: (tx: Tx) => Promise<unknown>) => {
    const locked = deferred<void>();
    const released = deferred<void>();
    const done = h.database.db.transaction(async (tx) => {
      await tx.execute(sql`select id from customers where id = ${customerId} for update`);
      locked.resolve();
      await released.promise;
      await beforeCommit?.(tx);
    });
    await locked.promise;
    return {
      release: async () => {
        released.resolve();
        await done;
      },
    };
  };
  const balance = async (customerId: number) =>
    (await h.database.db.select().from(customers).where(eq(customers.id, customerId)))[0]?.pointBalance;

  it('refuses a claim without a view, and one longer than the server-elapsed time, even clamped to the video', async () => {
    const u = await h.signUp();
    expect((await earn(u.token, 10)).json()).toMatchObject({ success: false, code: 'NO_MATCHING_VIEW' });
    expect((await view(u.token)).statusCode).toBe(200);
    h.clock.advance(5_000);
    const early = await earn(u.token, 10);
    expect(early.statusCode).toBe(422);
    expect(early.json().code).toBe('NO_MATCHING_VIEW');
    // Longer than the video: a claim of the video's 50 s, which 5 s since the view do not cover.
    expect((await earn(u.token, 51)).json()).toMatchObject({ success: false, code: 'NO_MATCHING_VIEW' });
    h.clock.advance(5_000);
    const paid = await earn(u.token, 10);
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ success: true, earnedPoints: 2, todayTotalPoints: 2 });
    // One reward per view.
    h.clock.advance(5_000);
    expect((await earn(u.token, 3)).json().code).toBe('NO_MATCHING_VIEW');
    expect(await balance(u.customerId)).toBe(2);
    const ledger = await h.database.db.select().from(pointLedger).where(eq(pointLedger.customerId, u.customerId));
    expect(ledger).toMatchObject([{ amount: 2, reason: 'WATCH_REWARD', refType: 'short', refId: String(id) }]);
  });

  it('pays a claim longer than the video at the video’s length, once the time since serving covers that length (S16)', async () => {
    const u = await h.signUp();
    const [row] = await h.database.db.select({ durationMs: shorts.durationMs }).from(shorts).where(eq(shorts.id, id));
    const length = (row?.durationMs ?? 0) / 1000;
    expect(length).toBeGreaterThan(45);
    expect((await view(u.token)).statusCode).toBe(200);
    // The claim's own 70 s have not passed, but the video's length has: paid at the length, not the claim.
    h.clock.advance(Math.ceil(length * 1000));
    const paid = await earn(u.token, 70);
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ success: true, earnedPoints: watchPoints(length) });
    expect(watchPoints(length)).toBeLessThan(watchPoints(70));
    expect(await balance(u.customerId)).toBe(watchPoints(length));
    // The paid time ends at the video's length, not at the claim's: the next view's claim starts from there.
    expect((await view(u.token)).statusCode).toBe(200);
    h.clock.advance(Math.ceil(length * 1000));
    expect((await earn(u.token, 3600)).json()).toMatchObject({ success: true, earnedPoints: watchPoints(length) });
  });

  it('opens a view and pays a claim only on a playable short: an unknown or hidden one is 404 and writes nothing', async () => {
    const u = await h.signUp();
    const [hidden] = await insertShorts(h.database.db, creator.customerId, [
      { title: '숨긴 영상', createdAt: h.clock.now() },
    ]);
    await h.database.db
      .update(shorts)
      .set({ status: 'HIDDEN' })
      .where(eq(shorts.id, hidden as number));
    for (const shortId of [999_999, hidden]) {
      const res = await post(`/api/shorts/${shortId}/views`, u.token);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('SHORT_NOT_FOUND');
      const claim = await earn(u.token, 5, shortId);
      expect(claim.statusCode).toBe(404);
      expect(claim.json().code).toBe('SHORT_NOT_FOUND');
    }
    const opened = await view(u.token);
    expect(opened.statusCode).toBe(200);
    const written = await h.database.db.select().from(shortViews).where(eq(shortViews.customerId, u.customerId));
    expect(written).toMatchObject([{ id: opened.json().data.viewId, shortId: id }]);
    expect(written[0]?.startedAt.toISOString()).toBe(opened.json().data.startedAt);
  });

  it('pays at least 1 P and needs a login', async () => {
    const u = await h.signUp();
    await view(u.token);
    h.clock.advance(3_000);
    expect((await earn(u.token, 3)).json()).toMatchObject({ success: true, earnedPoints: 1 });
    const anon = await h.app.inject({
      method: 'POST',
      url: '/api/shorts/point/earn',
      payload: { watchedSeconds: 1, shortsId: id },
    });
    expect(anon.statusCode).toBe(401);
  });

  it('pays nothing for a view claimed at once or for less than the minimum watch', async () => {
    const u = await h.signUp();
    await view(u.token);
    const instant = await earn(u.token, 0.001);
    expect(instant.statusCode).toBe(422);
    expect(instant.json().code).toBe('WATCH_TOO_SHORT');
    h.clock.advance(2_900);
    expect((await earn(u.token, 2.9)).json().code).toBe('WATCH_TOO_SHORT');
    expect((await earn(u.token, 3)).json().code).toBe('NO_MATCHING_VIEW');
    expect(await balance(u.customerId)).toBe(0);
  });

  it('pays each real second once: 20 views opened together and claimed after 3 s pay for one', async () => {
    const u = await h.signUp();
    for (let i = 0; i < 20; i++) await view(u.token);
    h.clock.advance(3_000);
    const results = (await Promise.all(Array.from({ length: 20 }, () => earn(u.token, 3)))).map((r) => r.json());
    expect(results.filter((b) => b.success === true)).toHaveLength(1);
    for (const b of results.filter((b) => b.success !== true)) expect(b.code).toBe('NO_MATCHING_VIEW');
    expect(await balance(u.customerId)).toBe(1);
    // Three more real seconds pay for one more of the open views, and so on: time, not views, is paid.
    h.clock.advance(3_000);
    expect((await earn(u.token, 3)).json()).toMatchObject({ success: true, earnedPoints: 1 });
    expect((await earn(u.token, 3)).json().code).toBe('NO_MATCHING_VIEW');
  });

  it('earns from a served feed page or short without a view; claims summed never pass the wall time since serving (S16)', async () => {
    const u = await h.signUp();
    const short2 = await uploadShort(h, creator.token, clip, { title: '2초 영상', content: '짧게' });
    h.clock.advance(10_000);
    // Never served to this customer: no watch to pay.
    expect((await earn(u.token, 10)).json().code).toBe('NO_MATCHING_VIEW');
    // The signed-in feed serves both shorts; no view is ever opened.
    const page = await get('/api/shorts/feeds?page=1&size=50', u.token);
    const served = page.json().data.map((s: { shortsId: number }) => s.shortsId);
    expect(served).toEqual(expect.arrayContaining([id, short2]));
    h.clock.advance(8_000);
    expect((await earn(u.token, 10)).json().code).toBe('NO_MATCHING_VIEW');
    h.clock.advance(2_000);
    expect((await earn(u.token, 10)).json()).toMatchObject({ success: true, earnedPoints: 2 });
    // The other short was served at the same moment: its seconds are the ones just paid.
    expect((await earn(u.token, 2, short2)).json().code).toBe('NO_MATCHING_VIEW');
    h.clock.advance(2_000);
    expect((await earn(u.token, 2, short2)).json()).toMatchObject({ success: true, earnedPoints: 1 });
    // The short alone serves it again; a reload keeps the open watch's start (a restart would refuse below).
    expect((await get(`/api/public/shorts/${id}`, u.token)).statusCode).toBe(200);
    h.clock.advance(5_000);
    expect((await get(`/api/public/shorts/${id}`, u.token)).statusCode).toBe(200);
    h.clock.advance(5_000);
    expect((await earn(u.token, 10)).json()).toMatchObject({ success: true, earnedPoints: 2 });
    // An anonymous read serves nobody.
    expect((await get(`/api/public/shorts/${id}`)).statusCode).toBe(200);
    expect(await balance(u.customerId)).toBe(5);
  });

  it('never pays more than 100 P a KST day under concurrent claims, with a partial award at the cap', async () => {
    const u = await h.signUp();
    for (let i = 0; i < 14; i++) expect((await view(u.token)).statusCode).toBe(200);
    // Enough real time for all 14 claims of 45 s one after another (real seconds are paid once).
    h.clock.advance(14 * 45_000);
    // 45 s → round(7.5) = 8 P each; 14 claims ask for 112 P.
    const results = await Promise.all(Array.from({ length: 14 }, () => earn(u.token, 45)));
    const bodies = results.map((r) => r.json());
    const paid = bodies.filter((b) => b.success === true);
    const earned = paid.map((b) => b.earnedPoints as number);
    expect(earned.reduce((a, b) => a + b, 0)).toBe(100);
    expect(earned.sort((a, b) => a - b)).toEqual([4, ...Array(12).fill(8)]);
    const refused = bodies.filter((b) => b.success === false);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({
      code: 'DAILY_LIMIT_REACHED',
      message: '오늘의 포인트 한도를 초과했습니다.',
      todayTotalPoints: 100,
    });
    expect(await balance(u.customerId)).toBe(100);
    const ledger = await h.database.db.select().from(pointLedger).where(eq(pointLedger.customerId, u.customerId));
    expect(ledger.reduce((a, r) => a + r.amount, 0)).toBe(100);
    // Each paid claim recorded its points with the balance after it, and the claim that filled the day said so once.
    const events = await eventsOf(h.database.db, u.customerId);
    const posted = events.flatMap((e) => (e.type === 'points.posted' ? [e] : []));
    // Twelve claims of 8 P, then the partial 4 P that reaches the cap.
    expect(posted.map((e) => e.balance).sort((a, b) => a - b)).toEqual([
      ...Array.from({ length: 12 }, (_, i) => 8 * (i + 1)),
      100,
    ]);
    expect(posted.every((e) => e.reason === 'WATCH_REWARD' && e.refType === 'short')).toBe(true);
    expect(events.filter((e) => e.type === 'shorts.watch_cap_reached')).toEqual([
      { type: 'shorts.watch_cap_reached', customerId: u.customerId, date: kstDate(h.clock.now()), limit: 100 },
    ]);
    const today = await h.app.inject({ method: 'GET', url: '/api/shorts/point/today', headers: bearer(u.token) });
    expect(today.json().data).toEqual({ todayTotalPoints: 100, limit: 100 });

    // A new KST day opens a new allowance; the unused view still pays.
    h.clock.set('2026-11-22T15:00:00Z'); // 2026-11-23 00:00 KST, within the token's 12 h
    const fresh = await h.app.inject({ method: 'GET', url: '/api/shorts/point/today', headers: bearer(u.token) });
    expect(fresh.json().data.todayTotalPoints).toBe(0);
    const next = await earn(u.token, 45);
    expect(next.json()).toMatchObject({ success: true, earnedPoints: 8, todayTotalPoints: 8 });
  });

  it("takes the customer's money lock before the day's row: a claim queued behind another money path pays from the day it left", async () => {
    const u = await h.signUp();
    expect((await view(u.token)).statusCode).toBe(200);
    h.clock.advance(45_000);
    const today = kstDate(h.clock.now());
    await h.database.db.execute(
      sql`insert into short_watch_daily (customer_id, kst_date, total) values (${u.customerId}, ${today}, 50)`,
    );
    // Another money path of the customer: it holds their row, and moves the day's row only after the claim queued.
    const holder = await holdCustomerRow(u.customerId, (tx) =>
      tx.execute(
        sql`update short_watch_daily set total = 98 where customer_id = ${u.customerId} and kst_date = ${today}`,
      ),
    );
    const claim = earn(u.token, 45);
    await lockWaiters(h.database.db, '%customer_locked%');
    await holder.release();
    expect((await claim).json()).toMatchObject({ success: true, earnedPoints: 2, todayTotalPoints: 100 });
    expect(await balance(u.customerId)).toBe(2);
  });

  it("answers a claim on a day at its cap without waiting for the customer's money lock", async () => {
    const u = await h.signUp();
    expect((await view(u.token)).statusCode).toBe(200);
    h.clock.advance(45_000);
    await h.database.db.execute(
      sql`insert into short_watch_daily (customer_id, kst_date, total) values (${u.customerId}, ${kstDate(h.clock.now())}, 100)`,
    );
    // A money path of the same customer holds their row until the claim has its answer.
    const holder = await holdCustomerRow(u.customerId);
    const capped = await earn(u.token, 45);
    await holder.release();
    expect(capped.json()).toMatchObject({ success: false, code: 'DAILY_LIMIT_REACHED', todayTotalPoints: 100 });
    expect(await balance(u.customerId)).toBe(0);
  });
});
