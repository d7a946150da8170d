import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHAT_SESSIONS_PER_CUSTOMER, FAQ_ITEMS, HOBBIES, MOODS } from '@ohgood/contract/chat-rules';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { chatProducts, chatSessions, customers } from '../../db/schema';
import { rowsOf } from '../../db/tx';
import { testConfig } from '../../lib/config';
import { DEMO_CATALOG, seedChatProducts } from '../../seed/demo-chat-products';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { insertPurchase } from '../../test/purchase-fixture';
import { FAQ_ANSWERS, SUSPENSION_ANSWERS } from './faq-answers';

const mediaDir = mkdtempSync(join(tmpdir(), 'ohgood-chat-media-'));
let h: Harness;

beforeAll(async () => {
  h = await createHarness({ config: { MEDIA_DIR: mediaDir } });
  await seedChatProducts(h.database.db, testConfig({ MEDIA_DIR: mediaDir }));
});
afterAll(async () => {
  await h.close();
  rmSync(mediaDir, { recursive: true, force: true });
});

interface Reply {
  message: string;
  products: Array<{ name: string; price: number; image: string; url: string; category: string }>;
  flow: string;
  sessionId: string;
  options: string[];
  quickMenu: { menu: string; title: string; path: string | null } | null;
}

/** One turn of the session the client named `sessionId` (docs/rules/chat.md#C1); the reply answers that id back. */
async function chat(token: string, sessionId: string, inputMessage: string, app: FastifyInstance = h.app) {
  const res = await app.inject({
    method: 'POST',
    url: '/chat',
    headers: bearer(token),
    payload: { sessionId, inputMessage, flow: 'init' },
  });
  const body = res.json() as { success: boolean; message: string; data: Reply };
  if (res.statusCode === 200) expect(body.data.sessionId).toBe(sessionId);
  return { status: res.statusCode, body };
}

const sessionRows = (sessionId: string) =>
  h.database.db.select().from(chatSessions).where(eq(chatSessions.id, sessionId)).orderBy(chatSessions.customerId);

async function toChoose(token: string, sessionId: string, hobby = '게임') {
  await chat(token, sessionId, '기분에 따른 추천');
  await chat(token, sessionId, '좋아');
  const chosen = await chat(token, sessionId, hobby);
  expect(chosen.body.data.flow).toBe('choose');
}

let n = 0;
const newSession = () => `test-session-${Date.now()}-${++n}`;

describe('catalogue', () => {
  it('has ≥ 60 products over five hobbies and three moods, 5,000–300,000 KRW, seeded idempotently', async () => {
    await seedChatProducts(h.database.db, testConfig({ MEDIA_DIR: mediaDir }));
    const rows = await h.database.db.select().from(chatProducts);
    expect(rows.length).toBe(Object.values(DEMO_CATALOG).flat().length);
    expect(rows.length).toBeGreaterThanOrEqual(60);
    for (const hobby of HOBBIES) {
      for (const mood of MOODS) {
        const count = rows.filter((r) => r.hobby === hobby && r.moods.includes(mood)).length;
        expect(count, `${hobby}/${mood}`).toBeGreaterThanOrEqual(3);
      }
    }
    const prices = rows.map((r) => r.price);
    expect(Math.min(...prices)).toBeGreaterThanOrEqual(5_000);
    expect(Math.max(...prices)).toBeLessThanOrEqual(300_000);
    expect(prices.some((p) => p < 10_000) && prices.some((p) => p > 200_000)).toBe(true);
  });

  it('a reseed writes no row of an unchanged catalogue, and puts back a row that was changed', async () => {
    const config = testConfig({ MEDIA_DIR: mediaDir });
    const versions = () =>
      rowsOf<{ slug: string; version: string }>(
        h.database.db,
        sql`select slug, xmin::text as version from chat_products order by slug`,
      );
    const before = await versions();
    await seedChatProducts(h.database.db, config);
    expect(await versions()).toEqual(before);

    const [first] = await h.database.db.select().from(chatProducts).orderBy(chatProducts.slug).limit(1);
    if (!first) throw new Error('no products');
    await h.database.db
      .update(chatProducts)
      .set({ price: first.price + 1, moods: [] })
      .where(eq(chatProducts.id, first.id));
    await seedChatProducts(h.database.db, config);
    const [restored] = await h.database.db.select().from(chatProducts).where(eq(chatProducts.id, first.id));
    expect(restored).toEqual(first);
  });

  it('serves our generated product images from /media', async () => {
    const [row] = await h.database.db.select().from(chatProducts).limit(1);
    const res = await h.app.inject({ method: 'GET', url: `/media/${row?.imageKey}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.body).toMatch(/^<svg /);
  });
});

describe('POST /chat', () => {
  it('needs a token and a non-blank message', async () => {
    const anon = await h.app.inject({
      method: 'POST',
      url: '/chat',
      payload: { sessionId: newSession(), inputMessage: '안녕', flow: 'init' },
    });
    expect(anon.statusCode).toBe(401);
    const { token } = await h.signUp();
    const blank = await chat(token, newSession(), '   ');
    expect(blank.status).toBe(400);
  });

  it('answers in the contract shape and starts a session when none is given', async () => {
    const { token } = await h.signUp();
    const res = await h.app.inject({
      method: 'POST',
      url: '/chat',
      headers: bearer(token),
      payload: { inputMessage: '포인트는 어떻게 모아?', flow: 'init' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      data: { message: FAQ_ANSWERS.포인트, products: [], flow: 'question' },
    });
    expect(body.data.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.data.options).toEqual([...FAQ_ITEMS]);
  });

  it('recommends three products, then three new ones on 다른 상품, never repeating, until exhausted', async () => {
    const { token } = await h.signUp();
    const sid = newSession();
    await toChoose(token, sid, '독서');
    const first = await chat(token, sid, '상품추천');
    expect(first.body.data.flow).toBe('recommendation');
    expect(first.body.data.products).toHaveLength(3);
    expect(first.body.data.products[0]?.image).toMatch(/^\/media\/chat-products\/.+\.svg$/);
    const seen = new Set(first.body.data.products.map((p) => p.name));
    let last = first;
    for (let i = 0; i < 10; i++) {
      last = await chat(token, sid, '다른 상품');
      if (last.body.data.products.length === 0) break;
      expect(last.body.data.flow).toBe('re-recommendation');
      for (const p of last.body.data.products) {
        expect(seen.has(p.name), `repeated ${p.name}`).toBe(false);
        seen.add(p.name);
      }
    }
    // A new customer's limit (bronze, 100,000) leaves out the dearer books: every affordable one was shown once.
    const affordable = DEMO_CATALOG.독서.filter((p) => p.price <= 100_000).length;
    expect(seen.size).toBe(affordable);
    expect(last.body.data.products).toEqual([]);
    expect(last.body.data.options).toContain('처음으로');
    const [row] = await sessionRows(sid);
    expect(row?.shownProductIds).toHaveLength(affordable);
  });

  it('only recommends what fits the available limit, and says so when nothing does', async () => {
    const { token, customerId } = await h.signUp();
    await insertPurchase(h.database.db, { customerId, totalPrice: 80_000, at: h.clock.now() });
    const sid = newSession();
    await toChoose(token, sid, '운동');
    const rec = await chat(token, sid, '상품추천');
    expect(rec.body.data.products.length).toBeGreaterThan(0);
    for (const p of rec.body.data.products) expect(p.price).toBeLessThanOrEqual(20_000);

    const { token: broke, customerId: brokeId } = await h.signUp();
    await insertPurchase(h.database.db, { customerId: brokeId, totalPrice: 99_000, at: h.clock.now() });
    const sid2 = newSession();
    await toChoose(broke, sid2, '영화보기');
    const none = await chat(broke, sid2, '상품추천');
    expect(none.body.data.products).toEqual([]);
    expect(none.body.data.message).toContain('1,000원');
    expect(none.body.data.message).not.toContain('운영 검토');
  });

  it('says a limit risk lowered is why nothing fits, with the limit in force', async () => {
    const { token, customerId } = await h.signUp();
    await h.database.db.update(customers).set({ creditLimit: 5_000 }).where(eq(customers.id, customerId));
    const sid = newSession();
    await toChoose(token, sid, '영화보기');
    const none = await chat(token, sid, '상품추천');
    expect(none.body.data.products).toEqual([]);
    expect(none.body.data.message).toContain('남은 한도(5,000원)');
    expect(none.body.data.message).toContain('월 한도는 운영 검토로 5,000원으로 조정돼 있어.');
  });

  it("another customer's same id reaches their own, new session, for chat and for clear-session", async () => {
    const a = await h.signUp();
    const b = await h.signUp();
    const sid = newSession();
    await toChoose(a.token, sid);
    const [before] = await sessionRows(sid);
    expect(before).toMatchObject({ customerId: a.customerId, flow: 'choose', hobby: '게임' });

    // B's client happens to choose the same id: B gets a conversation of B's own, at its start.
    const theirs = await chat(b.token, sid, '상품추천');
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.products).toEqual([]);
    expect(theirs.body.data.flow).not.toBe('recommendation');
    const rows = await sessionRows(sid);
    expect(rows.map((r) => r.customerId)).toEqual([a.customerId, b.customerId]);
    expect(rows[0]).toEqual(before);
    expect(rows[1]).toMatchObject({ mood: null, hobby: null, shownProductIds: [] });

    // B's clear-session clears B's own session only.
    const clear = await h.app.inject({
      method: 'POST',
      url: '/chat/clear-session',
      headers: bearer(b.token),
      payload: { sessionId: sid },
    });
    expect(clear.json()).toMatchObject({ success: true, data: { sessionId: sid, cleared: true } });
    expect((await sessionRows(sid)).map((r) => r.customerId)).toEqual([a.customerId]);
    // The owner's conversation is untouched.
    const mine = await chat(a.token, sid, '상품추천');
    expect(mine.body.data.flow).toBe('recommendation');
    expect(mine.body.data.products).toHaveLength(3);
  });

  it("accepts the client's session id: a new id starts a session under it, and the same id carries it on", async () => {
    const { token, customerId } = await h.signUp();
    const chosen = 'client-made-up-id-0001';
    const first = await chat(token, chosen, '기분에 따른 추천');
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ sessionId: chosen, flow: 'mood_check' });
    expect(await sessionRows(chosen)).toMatchObject([{ customerId, flow: 'mood_check' }]);
    // Every later turn sends the same id: the conversation goes on rather than starting again.
    const next = await chat(token, chosen, '좋아');
    expect(next.body.data).toMatchObject({ sessionId: chosen, flow: 'hobby_check' });
  });

  it(`keeps at most ${CHAT_SESSIONS_PER_CUSTOMER} open sessions per customer: starting more forgets the oldest`, async () => {
    const { token, customerId } = await h.signUp();
    const ids: string[] = [];
    for (let i = 0; i < CHAT_SESSIONS_PER_CUSTOMER + 3; i++) {
      h.clock.advance(1_000);
      ids.push((await chat(token, `session-cap-${customerId}-${i}`, '안녕')).body.data.sessionId);
    }
    const open = await h.database.db
      .select({ id: chatSessions.id })
      .from(chatSessions)
      .where(eq(chatSessions.customerId, customerId));
    expect(open.map((r) => r.id).sort()).toEqual(ids.slice(-CHAT_SESSIONS_PER_CUSTOMER).sort());
    // A burst in parallel cannot grow past the cap either.
    await Promise.all(Array.from({ length: 20 }, (_, i) => chat(token, `session-burst-${customerId}-${i}`, '안녕')));
    const after = await h.database.db.select().from(chatSessions).where(eq(chatSessions.customerId, customerId));
    expect(after.length).toBeLessThanOrEqual(CHAT_SESSIONS_PER_CUSTOMER);
  });

  it('serialises concurrent turns of one session: parallel 다른 상품 never show a product twice', async () => {
    const { token } = await h.signUp();
    const sid = newSession();
    await toChoose(token, sid, '게임');
    await chat(token, sid, '상품추천');
    const replies = await Promise.all([1, 2, 3].map(() => chat(token, sid, '다른 상품')));
    const names = replies.flatMap((r) => r.body.data.products.map((p) => p.name));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(new Set(names).size).toBe(names.length);
    const [row] = await sessionRows(sid);
    expect(new Set(row?.shownProductIds).size).toBe(row?.shownProductIds.length);
  });

  it('forgets a session after an hour idle, not before', async () => {
    const { token } = await h.signUp();
    const sid = newSession();
    await toChoose(token, sid);
    h.clock.advance(59 * 60_000);
    expect((await chat(token, sid, '상품추천')).body.data.flow).toBe('recommendation');
    h.clock.advance(60 * 60_000 + 1_000);
    const after = await chat(token, sid, '다른 상품');
    expect(after.body.data.products).toEqual([]);
    expect(after.body.data.flow).not.toBe('re-recommendation');
  });

  it('clear-session resets the conversation', async () => {
    const { token } = await h.signUp();
    const sid = newSession();
    await toChoose(token, sid);
    const res = await h.app.inject({
      method: 'POST',
      url: '/chat/clear-session',
      headers: bearer(token),
      payload: { sessionId: sid },
    });
    expect(res.json()).toMatchObject({ success: true, data: { sessionId: sid, cleared: true } });
    expect((await chat(token, sid, '상품추천')).body.data.flow).not.toBe('recommendation');
  });

  it('survives a server restart: a new app on the same database continues the conversation', async () => {
    const { token } = await h.signUp();
    const sid = newSession();
    await toChoose(token, sid, '음악감상');
    const first = await chat(token, sid, '상품추천');
    const restarted = await buildApp({
      config: testConfig({ MEDIA_DIR: mediaDir }),
      database: h.database,
      clock: h.clock,
      jwtSecret: 'test-secret-test-secret-test-secret-1234',
    });
    await restarted.ready();
    try {
      const next = await chat(token, sid, '다른 상품', restarted);
      expect(next.body.data.flow).toBe('re-recommendation');
      expect(next.body.data.products).toHaveLength(3);
      const before = new Set(first.body.data.products.map((p) => p.name));
      for (const p of next.body.data.products) expect(before.has(p.name)).toBe(false);
    } finally {
      await restarted.close();
    }
  });
});

describe('asked how to lift a suspension, the chatbot names the reason on record', () => {
  it.each([
    {
      kind: 'not suspended',
      set: { suspended: false, staffSuspended: false },
      answer: FAQ_ANSWERS['계정 정지 해제법'],
    },
    { kind: 'overdue', set: { suspended: true, staffSuspended: false }, answer: SUSPENSION_ANSWERS.OVERDUE },
    { kind: 'staff', set: { suspended: true, staffSuspended: true }, answer: SUSPENSION_ANSWERS.STAFF },
  ])('$kind', async ({ set, answer }) => {
    const { token, customerId } = await h.signUp();
    await h.database.db.update(customers).set(set).where(eq(customers.id, customerId));
    const sessionId = newSession();
    await chat(token, sessionId, '자주하는 질문');
    const { body } = await chat(token, sessionId, '계정 정지 해제법');
    expect(body.data.message).toBe(answer);
  });

  it('a staff suspension never tells the customer of an overdue bill or that paying lifts it', () => {
    expect(SUSPENSION_ANSWERS.STAFF).not.toMatch(/연체된|납부하면/);
    expect(SUSPENSION_ANSWERS.STAFF).toContain('고객센터');
    expect(SUSPENSION_ANSWERS.OVERDUE).toContain('연체된 금액을 모두 납부하면');
  });
});

describe('GET /chat', () => {
  it('is the web app, not a JSON 404, so a reload on /chat works', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'ohgood-dist-'));
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>오굿페이</title>');
    const app = await buildApp({
      config: testConfig({ WEB_DIST: dist }),
      database: h.database,
      clock: h.clock,
      jwtSecret: 'test-secret-test-secret-test-secret-1234',
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/chat', headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
    } finally {
      await app.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
