import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../lib/config';
import { seedChatProducts } from '../seed/demo-chat-products';
import { createHarness, type Harness } from '../test/harness';
import { makeVideo } from '../test/media';
import { createMerchant } from '../test/merchant-fixture';
import { insertShorts } from '../test/shorts-fixture';

/**
 * The API contract (docs/rules/api.md) as a stranger's client sees it: plain fetch against the app listening on a port,
 * bodies read the way an axios client does (`response.data` is the HTTP body), field places taken from the spec's public API
 * table — and no code shared with the contract package. Only the set-up (a merchant key, a short to watch) uses
 * server test tools.
 */

let h: Harness;
let work: string;
let base: string;
let merchantKey: string;
let shortsId: number;

/** What an axios-style client gets: the status and the parsed body. */
async function call(method: string, path: string, options: { token?: string; json?: unknown; headers?: object } = {}) {
  const headers: Record<string, string> = { accept: 'application/json', ...(options.headers as object) };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: a plain client reads untyped JSON, as any API client does
  const data: any = text ? JSON.parse(text) : null;
  return { status: res.status, data };
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ohgood-plain-client-'));
  h = await createHarness({ now: '2026-11-10T03:00:00Z', config: { MEDIA_DIR: join(work, 'media') } });
  base = await h.app.listen({ port: 0, host: '127.0.0.1' });
  merchantKey = (await createMerchant(h.database.db, '스펙상점')).key;

  // A creator uploads one short over HTTP (multipart), and the server finishes transcoding it.
  const creator = await h.signUp();
  const form = new FormData();
  form.append('title', '스펙 영상');
  form.append('content', '설명 #스펙');
  const video = await readFile(await makeVideo(work, 'clip.mp4', { seconds: 3 }));
  form.append('video', new Blob([video], { type: 'video/mp4' }), 'clip.mp4');
  const uploaded = await fetch(`${base}/api/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${creator.token}` },
    body: form,
  });
  expect(uploaded.status).toBe(200);
  shortsId = ((await uploaded.json()) as { data: { shortsId: number } }).data.shortsId;
  await h.app.mediaPipeline.idle();
});
afterAll(async () => {
  await h.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the API contract with a plain client (A1, A2)', () => {
  const emailId = `plain-${Date.now()}@example.com`;
  const pwd = 'plainpass!';
  let token: string;
  let requestId: string;

  it('registers: {success, message, data}', async () => {
    const res = await call('POST', '/api/public/register', {
      json: { name: '스펙', emailId, pwd, birth: '1995-05-05', account: '110123456789', accountName: '신한' },
    });
    expect(res.status).toBe(200);
    expect(res.data.success).toBe(true);
    expect(res.data.message).toBe('회원가입 성공');
  });

  it('logs in: POST /auth → {accessToken} at the top', async () => {
    const res = await call('POST', '/auth', { json: { emailId, pwd } });
    expect(res.status).toBe(200);
    expect(typeof res.data.accessToken).toBe('string');
    token = res.data.accessToken;
  });

  it('validates a PIN: {requestName, price, point, balance, requestId} at the top', async () => {
    const created = await call('POST', '/api/merchant/payment-requests', {
      headers: { 'x-merchant-key': merchantKey },
      json: { orderId: `plain-${Date.now()}`, requestName: '아메리카노', totalPrice: 4500 },
    });
    expect(created.status).toBe(200);
    const res = await call('POST', '/api/payment/validate', {
      token,
      json: { codeType: 'pincode', value: created.data.pinCode },
    });
    expect(res.status).toBe(200);
    expect(res.data.requestName).toBe('아메리카노');
    expect(res.data.price).toBe(4500);
    expect(res.data.point).toBe(0);
    expect(res.data.balance).toBe(100_000);
    expect(res.data.requestId).toBe(created.data.requestId);
    requestId = res.data.requestId;
  });

  it('pays: POST /api/payment/final?point&requestId → {success, result}', async () => {
    const res = await call('POST', `/api/payment/final?point=0&requestId=${requestId}`, { token });
    expect(res.status).toBe(200);
    expect(res.data.success).toBe(true);
    expect(res.data.result.price).toBe(4500);
    expect(typeof res.data.result.paymentId).toBe('number');
  });

  it('lists payment and point history as bare arrays', async () => {
    const payments = await call('GET', '/api/payment/history', { token });
    expect(Array.isArray(payments.data)).toBe(true);
    expect(payments.data[0]).toMatchObject({ requestName: '아메리카노', totalPrice: 4500, point: 0, price: 4500 });
    expect(typeof payments.data[0].paymentId).toBe('number');
    expect(typeof payments.data[0].date).toBe('string');
    const points = await call('GET', '/api/point/history', { token });
    expect(Array.isArray(points.data)).toBe(true);
    expect(points.data[0]).toMatchObject({ pointExplain: expect.any(String), point: expect.any(Number) });
  });

  it('reads my page fields at the top', async () => {
    const res = await call('GET', '/api/mypage', { token });
    expect(res.status).toBe(200);
    expect(res.data.name).toBe('스펙');
    expect(res.data.emailId).toBe(emailId);
    expect(res.data.gradeName).toBe('bronze');
    expect(res.data.accountName).toBe('신한');
    // The account is at its place, masked (only the last four digits leave the server).
    expect(res.data.account).toBe('****6789');
    expect(typeof res.data.pointPercent).toBe('number');
    expect(typeof res.data.gradePoint).toBe('number');
    expect(typeof res.data.point).toBe('number');
  });

  it('reads payment info fields at the top, unpaid bills as lists of lists', async () => {
    const res = await call('GET', '/api/payment/info', { token });
    expect(res.status).toBe(200);
    expect(res.data.balance).toBe(100_000 - 4500);
    expect(res.data.limitPrice).toBe(100_000);
    expect(res.data.gradeName).toBe('bronze');
    expect(res.data).toMatchObject({ accountName: '신한', auto: false, extension: false });
    expect(typeof res.data.customerId).toBe('number');
    expect(typeof res.data.pointPercentage).toBe('number');
    expect(res.data.unpaidBills[0][0]).toMatchObject({ requestName: '아메리카노', price: 4500 });
    expect(typeof res.data.unpaidBills[0][0].paymentId).toBe('number');
  });

  it('reads this month with the original names', async () => {
    const res = await call('GET', '/api/dash/me/pay-this-month', { token });
    expect(res.data.month).toBe('2026-11');
    expect(res.data.sumTotalPrice).toBe(4500);
    expect(typeof res.data.sumPointThisMonth).toBe('number');
    expect(typeof res.data.currentPointBalance).toBe('number');
    expect(res.data.items[0]).toMatchObject({ requestName: '아메리카노', totalPrice: 4500 });
    expect(typeof res.data.items[0].paymentId).toBe('number');
  });

  it('says whether today is checked in with a bare boolean', async () => {
    const res = await call('GET', '/api/checkin/today', { token });
    expect(res.data).toBe(false);
  });

  it('pages the feed: data is the list, paging beside it', async () => {
    for (const path of ['/api/public/shorts/feeds?page=1&size=10', '/api/shorts/feeds?page=1&size=10']) {
      const res = await call('GET', path, { token });
      expect(res.status).toBe(200);
      expect(res.data).toMatchObject({ success: true, page: 1, size: 10, hasNext: false });
      expect(typeof res.data.message).toBe('string');
      expect(Array.isArray(res.data.data)).toBe(true);
      expect(res.data.data[0]).toMatchObject({ shortsId, title: '스펙 영상', myReaction: 'none' });
    }
    const anonymous = await call('GET', '/api/public/shorts/feeds?page=1&size=10');
    expect(anonymous.data.data[0].shortsId).toBe(shortsId);
  });

  it('lists comments: data is the list', async () => {
    const posted = await call('POST', `/api/shorts/feeds/${shortsId}/comments`, {
      token,
      json: { content: '좋아요!', gno: 0 },
    });
    expect(posted.status).toBe(200);
    const res = await call('GET', `/api/public/shorts/feeds/${shortsId}/comments`);
    expect(res.data.success).toBe(true);
    expect(Array.isArray(res.data.data)).toBe(true);
    expect(res.data.data[0]).toMatchObject({ content: '좋아요!', gno: 0, nickname: expect.any(String) });
    expect(typeof res.data.data[0].commentId).toBe('number');
  });

  it('reads one short as the item itself', async () => {
    const res = await call('GET', `/api/public/shorts/${shortsId}`, { token });
    expect(res.status).toBe(200);
    expect(res.data.shortsId).toBe(shortsId);
    expect(res.data).toMatchObject({ title: '스펙 영상', commentCount: 1, likeCount: 0, myReaction: 'none' });
    expect(typeof res.data.videoName).toBe('string');
    expect(res.data.subscriptionStatus).toBe('NOT_SUBSCRIBED');
  });

  it('reacts: {success, message, data: {likeCount, myReaction}}', async () => {
    const res = await call('POST', `/api/shorts/feeds/${shortsId}/reactions`, {
      token,
      json: { shortsId, type: 'like' },
    });
    expect(res.status).toBe(200);
    expect(res.data.success).toBe(true);
    expect(res.data.data).toEqual({ likeCount: 1, myReaction: 'like' });
  });

  it('earns watch points: {success, earnedPoints, todayTotalPoints} at the top', async () => {
    const view = await call('POST', `/api/shorts/${shortsId}/views`, { token });
    expect(view.status).toBe(200);
    const one = await call('GET', `/api/public/shorts/${shortsId}`);
    const watchedSeconds = Math.floor(one.data.durationSeconds);
    h.clock.advance((watchedSeconds + 1) * 1000);
    const res = await call('POST', '/api/shorts/point/earn', { token, json: { watchedSeconds, shortsId } });
    expect(res.status).toBe(200);
    expect(res.data.success).toBe(true);
    expect(res.data.earnedPoints).toBeGreaterThan(0);
    expect(res.data.todayTotalPoints).toBe(res.data.earnedPoints);
  });

  it('fails in one shape: a status with {success: false, code, message}', async () => {
    const res = await call('GET', '/api/mypage');
    expect(res.status).toBe(401);
    expect(res.data).toEqual({ success: false, code: 'UNAUTHORIZED', message: expect.any(String) });
  });
});

describe('the calls another client reads by the table: bare lists, code 200, monthlyMap, sign-up, watching', () => {
  const emailId = `plain-b-${Date.now()}@example.com`;
  const pwd = 'plainpass!';
  const register = (fields: object) =>
    call('POST', '/api/public/register', {
      json: {
        name: '다른앱',
        emailId,
        pwd,
        birth: '1990-01-02',
        account: '110-123-456789',
        accountName: '국민',
        ...fields,
      },
    });
  let token: string;

  it('signs up with an account number typed with hyphens, stored as digits', async () => {
    const res = await register({});
    expect(res.status).toBe(200);
    expect(res.data.success).toBe(true);
    token = (await call('POST', '/auth', { json: { emailId, pwd } })).data.accessToken;
    const me = await call('GET', '/api/mypage', { token });
    expect(me.data.account).toBe('****6789');
  });

  it('names the field and its rule in every sign-up refusal', async () => {
    const refusals: Array<[object, string, string]> = [
      [{ emailId: 'not-an-email' }, 'emailId', '이메일'],
      [{ emailId: `x${emailId}`, name: '' }, 'name', '이름'],
      [{ emailId: `x${emailId}`, pwd: 'short' }, 'pwd', '비밀번호'],
      [{ emailId: `x${emailId}`, birth: '1990/01/02' }, 'birth', '생년월일'],
      [{ emailId: `x${emailId}`, birth: '2999-01-01' }, 'birth', '생년월일'],
      [{ emailId: `x${emailId}`, account: '12-34' }, 'account', '계좌번호'],
      [{ emailId: `x${emailId}`, accountName: '없는은행' }, 'accountName', '은행'],
      [{ emailId: `x${emailId}`, nickname: '별명' }, 'nickname', '항목'],
      [{}, 'emailId', '이메일'],
    ];
    for (const [fields, field, named] of refusals) {
      const res = await register(fields);
      expect(res.status, JSON.stringify(fields)).toBeGreaterThanOrEqual(400);
      expect(res.data).toMatchObject({ success: false, field });
      expect(typeof res.data.code).toBe('string');
      expect(res.data.message).toContain(named);
    }
    const missing = await call('POST', '/api/public/register', { json: { emailId: `y${emailId}` } });
    expect(missing.status).toBe(400);
    expect(missing.data.field).toEqual(expect.any(String));
    expect(missing.data.message).toMatch(/[가-힣]+:/);
  });

  it('searches: items, nextCursor and hasNext at the top of the body', async () => {
    const res = await call('GET', `/api/public/shorts/search?q=${encodeURIComponent('스펙')}&limit=8`);
    expect(res.status).toBe(200);
    expect(res.data.items[0]).toMatchObject({ shortsId, title: '스펙 영상' });
    expect(res.data.hasNext).toBe(false);
    expect(res.data.nextCursor).toBeNull();
  });

  it('browses the newest shorts for an empty search', async () => {
    for (const path of ['/api/public/shorts/search?limit=8', '/api/public/shorts/search?q=&limit=8']) {
      const res = await call('GET', path);
      expect(res.status).toBe(200);
      expect(res.data.items.map((item: { shortsId: number }) => item.shortsId)).toEqual([shortsId]);
      expect(res.data.hasNext).toBe(false);
    }
  });

  it('subscribes and edits the profile with code 200 in the success body', async () => {
    const one = await call('GET', `/api/public/shorts/${shortsId}`);
    const subscribed = await call('POST', `/api/shorts/subscribe/${one.data.customerId}`, { token });
    expect(subscribed.status).toBe(200);
    expect(subscribed.data.code).toBe(200);
    const form = new FormData();
    form.append('nickname', '다른앱사용자');
    form.append('introduce', '안녕하세요');
    const edited = await fetch(`${base}/api/shorts/profile/edit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(edited.status).toBe(200);
    expect(((await edited.json()) as { code: unknown }).code).toBe(200);
  });

  it('reads the shorts my page bare: overview and the three paged lists', async () => {
    await call('POST', `/api/shorts/feeds/${shortsId}/reactions`, { token, json: { shortsId, type: 'like' } });
    await call('POST', `/api/shorts/feeds/${shortsId}/comments`, { token, json: { content: '다른 앱에서', gno: 0 } });
    const overview = await call('GET', '/api/shorts/mypage/overview?limit=8', { token });
    expect(overview.status).toBe(200);
    expect(overview.data.header).toMatchObject({ displayName: '다른앱사용자', userId: expect.any(Number) });
    expect(overview.data.subscriptions.items).toHaveLength(1);
    expect(overview.data.likedVideos.items[0]).toMatchObject({ shortsId, title: '스펙 영상' });
    expect(overview.data.commentedVideos.items[0]).toMatchObject({ shortsId, context: '다른 앱에서' });
    for (const list of ['subscribe', 'all', 'comments']) {
      const res = await call('GET', `/api/shorts/mypage/${list}?limit=8`, { token });
      expect(res.status).toBe(200);
      expect(res.data.items).toHaveLength(1);
      expect(res.data.hasNext).toBe(false);
      expect(res.data.nextCursor).toBeNull();
    }
  });

  it('reads the spending analysis map as monthlyMap', async () => {
    const res = await call('POST', '/api/dash/analyze', { token, json: { windowMonths: 3 } });
    expect(res.status).toBe(200);
    const analysis = res.data.data;
    expect(analysis.months).toEqual(['2026-09', '2026-10', '2026-11']);
    expect(analysis.monthlyMap['2026-11']).toEqual({ totalSpend: 0, categories: [] });
    expect(Object.keys(analysis.monthlyMap)).toEqual(analysis.months);
  });

  it('earns watch points as a client that never opens a view, never faster than real time', async () => {
    const page = await call('GET', '/api/shorts/feeds?page=1&size=10', { token });
    const served = page.data.data.find((item: { shortsId: number }) => item.shortsId === shortsId);
    const watchedSeconds = Math.floor(served.durationSeconds);
    // Less real time than claimed since the feed served it: refused.
    h.clock.advance((watchedSeconds - 1) * 1000);
    const early = await call('POST', '/api/shorts/point/earn', { token, json: { watchedSeconds, shortsId } });
    expect(early.status).toBe(422);
    expect(early.data).toMatchObject({ success: false, code: 'NO_MATCHING_VIEW' });
    h.clock.advance(1000);
    const res = await call('POST', '/api/shorts/point/earn', { token, json: { watchedSeconds, shortsId } });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ success: true, earnedPoints: 1, todayTotalPoints: 1 });
  });
});

describe('a chat the client names: POST /chat carries the sessionId the client made (C1)', () => {
  let first: { token: string };
  let second: { token: string };
  beforeAll(async () => {
    await seedChatProducts(h.database.db, testConfig({ MEDIA_DIR: join(work, 'media') }));
    first = await h.signUp();
    second = await h.signUp();
  });
  const say = (token: string, sessionId: string, inputMessage: string, flow: string) =>
    call('POST', '/chat', { token, json: { sessionId, inputMessage, flow } });

  it('goes from the mood question to a recommendation on one client-chosen id, which every reply answers back', async () => {
    const sessionId = randomUUID();
    const steps: Array<[string, string, string]> = [
      ['기분에 따른 추천', 'start', 'mood_check'],
      ['좋아', 'mood_check', 'hobby_check'],
      ['게임', 'hobby_check', 'choose'],
      ['상품추천', 'choose', 'recommendation'],
    ];
    let last: Awaited<ReturnType<typeof say>> | undefined;
    for (const [inputMessage, flow, expected] of steps) {
      last = await say(first.token, sessionId, inputMessage, flow);
      expect(last.status, inputMessage).toBe(200);
      expect(last.data.data, inputMessage).toMatchObject({ sessionId, flow: expected });
    }
    expect(last?.data.data.products).toHaveLength(3);
    for (const product of last?.data.data.products ?? []) {
      expect(product).toEqual({
        name: expect.any(String),
        price: expect.any(Number),
        image: expect.any(String),
        url: expect.any(String),
        category: expect.any(String),
      });
    }
  });

  it('another customer using the same id reaches their own, different session, never the first one’s', async () => {
    const sessionId = randomUUID();
    await say(first.token, sessionId, '기분에 따른 추천', 'start');
    await say(first.token, sessionId, '좋아', 'mood_check');
    // The second customer's client chose the same id: their conversation starts from the beginning.
    const theirs = await say(second.token, sessionId, '게임', 'hobby_check');
    expect(theirs.status).toBe(200);
    expect(theirs.data.data.sessionId).toBe(sessionId);
    expect(theirs.data.data.flow).not.toBe('choose');
    const theirMood = await say(second.token, sessionId, '기분에 따른 추천', 'start');
    expect(theirMood.data.data.flow).toBe('mood_check');
    // The first customer's conversation is where they left it, at the hobby step.
    const mine = await say(first.token, sessionId, '게임', 'hobby_check');
    expect(mine.data.data).toMatchObject({ sessionId, flow: 'choose' });
    const recommended = await say(first.token, sessionId, '상품추천', 'choose');
    expect(recommended.data.data.products).toHaveLength(3);
  });
});

describe('a watch claim a little longer than the short (S16)', () => {
  let eightSeconds: number;
  beforeAll(async () => {
    const creator = await h.signUp();
    [eightSeconds] = (await insertShorts(h.database.db, creator.customerId, [
      { title: '8초 영상', createdAt: h.clock.now(), durationMs: 8_000 },
    ])) as [number];
  });
  const earn = (token: string, watchedSeconds: number) =>
    call('POST', '/api/shorts/point/earn', { token, json: { watchedSeconds, shortsId: eightSeconds } });
  const points = async (token: string) => (await call('GET', '/api/mypage', { token })).data.point as number;

  it('pays a claim 1 s longer than the short at the short’s length', async () => {
    const { token } = await h.signUp();
    const served = await call('GET', `/api/public/shorts/${eightSeconds}`, { token });
    expect(served.data.durationSeconds).toBe(8);
    // 8 s have passed since the short was served: enough for its length, not for the 9 s claimed.
    h.clock.advance(8_000);
    const res = await earn(token, 9);
    expect(res.status).toBe(200);
    // Paid for 8 s (max(1, round(8 × 10 / 60)) = 1); 9 s would have paid 2.
    expect(res.data).toMatchObject({ success: true, earnedPoints: 1, todayTotalPoints: 1 });
    expect(await points(token)).toBe(1);
  });

  it('still pays nothing for a 30 s claim right after serving an 8 s short', async () => {
    const { token } = await h.signUp();
    const before = await points(token);
    await call('GET', `/api/public/shorts/${eightSeconds}`, { token });
    h.clock.advance(1_000);
    const res = await earn(token, 30);
    expect(res.status).toBe(422);
    expect(res.data).toMatchObject({ success: false, code: 'NO_MATCHING_VIEW' });
    expect(await points(token)).toBe(before);
  });
});
