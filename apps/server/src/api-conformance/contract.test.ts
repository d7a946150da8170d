import { createECDH, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Endpoint } from '@ohgood/contract/endpoint';
import { allEndpoints, endpointGroups } from '@ohgood/contract/endpoints';
import { errorBody } from '@ohgood/contract/errors';
import { addDays, kstDate } from '@ohgood/contract/kst';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications, settlements } from '../db/schema';
import { withTx } from '../db/tx';
import { merchantIdForKey } from '../modules/merchants/keys';
import { closeSettlements } from '../modules/settlements/close';
import { consentToAutopay, depositedCode, sendCode } from '../test/autopay-fixture';
import { bearer, createHarness, type Harness } from '../test/harness';
import { type EndpointSample, injectEndpoint } from '../test/inject-endpoint';
import { makeVideo, multipart, uploadShort } from '../test/media';
import { createMerchant, grantPoints } from '../test/merchant-fixture';
import { createRequest, finalPay, validatePin } from '../test/payment-helpers';
import { insertPurchase } from '../test/purchase-fixture';

/**
 * Walks every endpoint of the contract's registry against the real app on a real database and checks the
 * actual body against the declared response schema, so a route cannot drift from the contract. Each
 * endpoint needs a sample call below: the `Samples` type makes a new endpoint a compile error here until
 * it has one.
 */

interface Customer {
  token: string;
  customerId: number;
  emailId: string;
  auth: Record<string, string>;
}

interface Fixtures {
  h: Harness;
  /** One shared customer (the viewer); `fresh` signs up a new one for calls that change its state. */
  customer(): Promise<Customer>;
  fresh(): Promise<Customer>;
  merchant(): Promise<{ headers: Record<string, string> }>;
  /** A READY short by its own creator, uploaded through the API. */
  short(): Promise<{ shortsId: number; creator: Customer; durationSeconds: number }>;
  clip(): Promise<string>;
}

type Groups = typeof endpointGroups;
type Samples = {
  [G in keyof Groups]: { [N in keyof Groups[G]]: (f: Fixtures) => Promise<EndpointSample> };
};

let orders = 0;
/** Accounts of their own for the 1원 인증 samples (one account, one owner). */
let accounts = 0;
const orderBody = (totalPrice = 1000) => ({
  orderId: `contract-${Date.now()}-${++orders}`,
  requestName: '계약 테스트',
  totalPrice,
});

/** A request the customer has validated and paid. */
async function paidRequest(f: Fixtures, customer: Customer) {
  const request = await createRequest(f.h, (await f.merchant()).headers, 2000);
  await validatePin(f.h, customer.token, request.pinCode);
  await finalPay(f.h, customer.token, request.requestId);
  return request;
}

/** A closed loopback port: a delivery a sample queues fails at once, without leaving the machine. */
const HOOK_URL = 'http://127.0.0.1:9/ohgood-webhooks';

/** A webhook endpoint of the shared merchant, registered through the API. */
async function webhookEndpoint(f: Fixtures): Promise<{ headers: Record<string, string>; endpointId: string }> {
  const { headers } = await f.merchant();
  const created = await f.h.app.inject({
    method: 'POST',
    url: '/api/merchant/webhooks',
    headers,
    payload: { url: HOOK_URL, events: ['payment.paid'] },
  });
  return { headers, endpointId: created.json().endpoint.endpointId };
}

/** The merchant's settlement of today's sales, closed as tomorrow's run would close them. */
const closedSettlement = async (f: Fixtures): Promise<EndpointSample> => {
  const { headers } = await f.merchant();
  await paidRequest(f, await f.fresh());
  // Today's sales closed as tomorrow's run would close them.
  const { db } = f.h.database;
  await withTx(db, (tx) => closeSettlements(tx, addDays(kstDate(f.h.clock.now()), 1), f.h.clock.now()));
  const merchantId = (await merchantIdForKey(db, headers['x-merchant-key'] ?? '')) ?? 0;
  const [row] = await db.select().from(settlements).where(eq(settlements.merchantId, merchantId));
  return { headers, params: { settlementId: row?.id ?? 0 } };
};

const samples: Samples = {
  auth: {
    register: async () => ({
      body: {
        name: '계약',
        emailId: `contract-${Date.now()}@example.com`,
        pwd: 'password1!',
        birth: '1990-01-01',
        account: '12345678901',
        accountName: '국민',
      },
    }),
    login: async (f) => ({ body: { emailId: (await f.customer()).emailId, pwd: 'password1!' } }),
    health: async () => ({}),
  },
  merchants: {
    create: async (f) => ({ headers: (await f.merchant()).headers, body: orderBody() }),
    get: async (f) => {
      const request = await createRequest(f.h, (await f.merchant()).headers, 1000);
      return { headers: (await f.merchant()).headers, params: { requestId: request.requestId } };
    },
    cancel: async (f) => {
      const request = await createRequest(f.h, (await f.merchant()).headers, 1000);
      return { headers: (await f.merchant()).headers, params: { requestId: request.requestId } };
    },
    refund: async (f) => {
      const request = await paidRequest(f, await f.fresh());
      return { headers: (await f.merchant()).headers, params: { requestId: request.requestId } };
    },
  },
  merchantPayments: {
    payments: async (f) => {
      await paidRequest(f, await f.fresh());
      return { headers: (await f.merchant()).headers, query: { status: 'PAID', limit: 5 } };
    },
  },
  settlements: {
    list: async (f) => ({ headers: (await f.merchant()).headers, query: {} }),
    get: (f) => closedSettlement(f),
    csv: (f) => closedSettlement(f),
  },
  payments: {
    validate: async (f) => {
      const { auth, customerId } = await f.customer();
      await grantPoints(f.h.database.db, customerId, 100, f.h.clock.now());
      const request = await createRequest(f.h, (await f.merchant()).headers, 4500);
      return { headers: auth, body: { codeType: 'pincode', value: request.pinCode } };
    },
    final: async (f) => {
      const { auth, token } = await f.customer();
      const request = await createRequest(f.h, (await f.merchant()).headers, 3000);
      await validatePin(f.h, token, request.pinCode);
      return {
        headers: { ...auth, 'idempotency-key': 'contract-final' },
        query: { point: 0, requestId: request.requestId },
      };
    },
    paymentHistory: async (f) => ({ headers: (await f.customer()).auth }),
    pointHistory: async (f) => ({ headers: (await f.customer()).auth, query: { month: '2026-11' } }),
    mypage: async (f) => ({ headers: (await f.customer()).auth }),
  },
  bills: {
    info: async (f) => {
      const customer = await f.fresh();
      await insertPurchase(f.h.database.db, { customerId: customer.customerId, totalPrice: 8000, at: LAST_MONTH });
      await paidRequest(f, customer);
      return { headers: customer.auth };
    },
    statements: async (f) => ({ headers: (await f.customer()).auth }),
    extension: async (f) => {
      const customer = await f.fresh();
      await insertPurchase(f.h.database.db, { customerId: customer.customerId, totalPrice: 8000, at: LAST_MONTH });
      return { headers: customer.auth };
    },
    repay: async (f) => {
      const customer = await f.fresh();
      const at = f.h.clock.now();
      const id = await insertPurchase(f.h.database.db, { customerId: customer.customerId, totalPrice: 5000, at });
      return { headers: customer.auth, body: [id] };
    },
    payThisMonth: async (f) => {
      const customer = await f.fresh();
      await paidRequest(f, customer);
      return { headers: customer.auth };
    },
  },
  autopay: {
    get: async (f) => ({ headers: (await f.customer()).auth }),
    set: async (f) => ({ headers: (await f.fresh()).auth, body: { autopay: false } }),
    sendCode: async (f) => {
      const customer = await f.h.signUp({ account: `7${String(++accounts).padStart(10, '0')}` });
      await consentToAutopay(f.h, customer.token);
      return { headers: bearer(customer.token) };
    },
    confirmCode: async (f) => {
      const customer = await f.h.signUp({ account: `8${String(++accounts).padStart(10, '0')}` });
      await consentToAutopay(f.h, customer.token);
      await sendCode(f.h, customer.token);
      return { headers: bearer(customer.token), body: { code: await depositedCode(f.h, customer.customerId) } };
    },
  },
  notifications: {
    list: async (f) => ({ headers: (await f.customer()).auth }),
    unread: async (f) => ({ headers: (await f.customer()).auth }),
    read: async (f) => {
      const customer = await f.fresh();
      const [row] = await f.h.database.db
        .insert(notifications)
        .values({
          customerId: customer.customerId,
          dedupeKey: `contract-${customer.customerId}`,
          kind: 'roulette_win',
          category: 'benefit',
          title: '출석 룰렛 당첨',
          body: '10P',
          link: '/point/history',
        })
        .returning({ id: notifications.id });
      return { headers: customer.auth, params: { id: row?.id ?? 0 } };
    },
    readAll: async (f) => ({ headers: (await f.customer()).auth }),
    getPreferences: async (f) => ({ headers: (await f.customer()).auth }),
    setPreferences: async (f) => ({
      headers: (await f.fresh()).auth,
      body: {
        billingPush: true,
        communityInApp: true,
        communityPush: false,
        benefitInApp: true,
        benefitPush: true,
        quietHours: true,
        quietStart: '22:00',
        quietEnd: '07:30',
      },
    }),
    pushKey: async (f) => ({ headers: (await f.customer()).auth }),
    subscribe: async (f) => ({
      headers: (await f.fresh()).auth,
      body: {
        endpoint: 'https://fcm.googleapis.com/fcm/send/device-1',
        // Keys a browser would send: a P-256 point and 16 random bytes (the server checks both).
        keys: {
          p256dh: createECDH('prime256v1').generateKeys('base64url'),
          auth: randomBytes(16).toString('base64url'),
        },
      },
    }),
    unsubscribe: async (f) => ({
      headers: (await f.customer()).auth,
      body: { endpoint: 'https://fcm.googleapis.com/fcm/send/device-1' },
    }),
  },
  checkin: {
    today: async (f) => ({ headers: (await f.customer()).auth }),
    roulette: async (f) => ({ headers: (await f.fresh()).auth, query: { point: '10' } }),
  },
  shorts: {
    publicFeed: async (f) => {
      await f.short();
      return { query: { page: 1, size: 5 } };
    },
    feed: async (f) => {
      await f.short();
      return { headers: (await f.customer()).auth, query: { page: 1, size: 5 } };
    },
    one: async (f) => ({ params: { id: (await f.short()).shortsId } }),
    status: async (f) => {
      const { shortsId, creator } = await f.short();
      return { headers: creator.auth, params: { id: shortsId } };
    },
    comments: async (f) => {
      const { shortsId } = await f.short();
      const { auth } = await f.customer();
      await injectEndpoint(f.h.app, endpointGroups.shorts.addComment, {
        headers: auth,
        params: { id: shortsId },
        body: { content: '첫 댓글', gno: 0 },
      });
      return { headers: auth, params: { id: shortsId } };
    },
    addComment: async (f) => ({
      headers: (await f.customer()).auth,
      params: { id: (await f.short()).shortsId },
      body: { content: '좋아요', gno: 0 },
    }),
    deleteComment: async (f) => {
      const { shortsId } = await f.short();
      const { auth } = await f.customer();
      const added = await injectEndpoint(f.h.app, endpointGroups.shorts.addComment, {
        headers: auth,
        params: { id: shortsId },
        body: { content: '지울 댓글', gno: 0 },
      });
      const { commentId } = (added.body as { data: { commentId: number } }).data;
      return { headers: auth, params: { id: shortsId, commentId } };
    },
    react: async (f) => {
      const { shortsId } = await f.short();
      return { headers: (await f.customer()).auth, params: { id: shortsId }, body: { shortsId, type: 'like' } };
    },
    subscribe: async (f) => ({
      headers: (await f.customer()).auth,
      params: { targetId: (await f.short()).creator.customerId },
    }),
    unsubscribe: async (f) => ({
      headers: (await f.customer()).auth,
      query: { targetId: (await f.short()).creator.customerId },
    }),
    openView: async (f) => ({ headers: (await f.customer()).auth, params: { id: (await f.short()).shortsId } }),
    watchToday: async (f) => ({ headers: (await f.customer()).auth }),
    earn: async (f) => {
      const { shortsId, durationSeconds } = await f.short();
      const viewer = await f.fresh();
      await injectEndpoint(f.h.app, endpointGroups.shorts.openView, { headers: viewer.auth, params: { id: shortsId } });
      f.h.clock.advance(Math.ceil(durationSeconds * 1000) + 1000);
      return { headers: viewer.auth, body: { shortsId, watchedSeconds: Math.floor(durationSeconds) } };
    },
    upload: async (f) => {
      const body = await multipart(
        { title: '계약 업로드', content: '설명' },
        { video: { path: await f.clip(), filename: 'clip.mp4', type: 'video/mp4' } },
      );
      return {
        headers: (await f.customer()).auth,
        multipart: { payload: body.payload, contentType: body.headers['content-type'] as string },
      };
    },
  },
  shortsDiscovery: {
    search: async (f) => {
      await f.short();
      return { query: { q: '테스트', limit: 8 } };
    },
    profile: async (f) => {
      const { creator } = await f.short();
      return { headers: (await f.customer()).auth, query: { targetId: creator.customerId, sortBy: 'like' } };
    },
    editProfile: async (f) => {
      const body = await multipart({ nickname: '계약닉네임', introduce: '소개' }, {});
      return {
        headers: (await f.fresh()).auth,
        multipart: { payload: body.payload, contentType: body.headers['content-type'] as string },
      };
    },
    overview: async (f) => ({ headers: (await f.customer()).auth, query: { limit: 8 } }),
    subscriptions: async (f) => ({ headers: (await f.customer()).auth, query: { limit: 8 } }),
    liked: async (f) => ({ headers: (await f.customer()).auth, query: { limit: 8 } }),
    commented: async (f) => {
      const { shortsId } = await f.short();
      const { auth } = await f.customer();
      await injectEndpoint(f.h.app, endpointGroups.shorts.addComment, {
        headers: auth,
        params: { id: shortsId },
        body: { content: '마이페이지 댓글', gno: 0 },
      });
      return { headers: auth, query: { limit: 8 } };
    },
  },
  safety: {
    report: async (f) => ({
      headers: (await f.fresh()).auth,
      body: { targetType: 'SHORT', targetId: (await f.short()).shortsId, reason: 'SPAM' },
    }),
    block: async (f) => ({
      headers: (await f.fresh()).auth,
      params: { customerId: (await f.short()).creator.customerId },
    }),
    unblock: async (f) => ({
      headers: (await f.customer()).auth,
      params: { customerId: (await f.short()).creator.customerId },
    }),
    blocks: async (f) => ({ headers: (await f.customer()).auth }),
  },
  report: {
    score: async (f) => ({ headers: (await f.customer()).auth }),
    analyze: async (f) => {
      const { auth, customerId } = await f.customer();
      await insertPurchase(f.h.database.db, { customerId, totalPrice: 12_000, at: f.h.clock.now() });
      return { headers: auth, body: { windowMonths: 6 } };
    },
    advice: async (f) => ({ headers: (await f.customer()).auth }),
  },
  webhooks: {
    create: async (f) => ({
      headers: (await f.merchant()).headers,
      body: { url: HOOK_URL, events: ['payment.paid', 'payment.refunded'] },
    }),
    list: async (f) => ({ headers: (await webhookEndpoint(f)).headers }),
    update: async (f) => {
      const { headers, endpointId } = await webhookEndpoint(f);
      return { headers, params: { endpointId }, body: { events: ['payment.refunded'] } };
    },
    remove: async (f) => {
      const { headers, endpointId } = await webhookEndpoint(f);
      return { headers, params: { endpointId } };
    },
    rotateSecret: async (f) => {
      const { headers, endpointId } = await webhookEndpoint(f);
      return { headers, params: { endpointId } };
    },
    test: async (f) => {
      const { headers, endpointId } = await webhookEndpoint(f);
      return { headers, params: { endpointId } };
    },
    deliveries: async (f) => ({ headers: (await webhookEndpoint(f)).headers }),
    replay: async (f) => {
      const { headers, endpointId } = await webhookEndpoint(f);
      const url = `/api/merchant/webhooks/${endpointId}/test`;
      const test = await f.h.app.inject({ method: 'POST', url, headers });
      return { headers, params: { deliveryId: test.json().deliveryId } };
    },
  },
  chat: {
    turn: async (f) => ({
      headers: (await f.customer()).auth,
      body: { sessionId: 'contract-chat-1', inputMessage: '포인트 내역 보여줘', flow: 'init' },
    }),
    clearSession: async (f) => ({ headers: (await f.customer()).auth, body: { sessionId: 'contract-chat-1' } }),
  },
};

/** Early in the month (like the e2e clock), so last month's statement can still be extended. */
const NOW = '2026-11-10T03:00:00Z';
const LAST_MONTH = new Date('2026-10-20T03:00:00Z');

let h: Harness;
let work: string;
let fixtures: Fixtures;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ohgood-contract-'));
  h = await createHarness({ now: NOW, config: { MEDIA_DIR: join(work, 'media'), WEBHOOKS_ALLOW_LOOPBACK: true } });
  const once = <T>(make: () => Promise<T>) => {
    let value: Promise<T> | undefined;
    return () => {
      value ??= make();
      return value;
    };
  };
  const fresh = async (): Promise<Customer> => {
    const signed = await h.signUp();
    return { ...signed, auth: bearer(signed.token) };
  };
  const clip = once(() => makeVideo(work, 'clip.mp4', { seconds: 2 }));
  fixtures = {
    h,
    fresh,
    customer: once(fresh),
    merchant: once(() => createMerchant(h.database.db)),
    clip,
    short: once(async () => {
      const creator = await fresh();
      const shortsId = await uploadShort(h, creator.token, await clip());
      const one = await h.app.inject({ method: 'GET', url: `/api/public/shorts/${shortsId}` });
      return { shortsId, creator, durationSeconds: one.json().durationSeconds as number };
    }),
  };
});
afterAll(async () => {
  await h.app.mediaPipeline.idle();
  await h.close();
  rmSync(work, { recursive: true, force: true });
});

const cases = Object.entries(endpointGroups).flatMap(([group, endpoints]) =>
  Object.entries(endpoints as Record<string, Endpoint>).map(([name, endpoint]) => ({
    label: `${group}.${name}: ${endpoint.method} ${endpoint.path}`,
    endpoint,
    sample: (samples as Record<string, Record<string, (f: Fixtures) => Promise<EndpointSample>>>)[group]?.[name],
  })),
);

describe('every declared endpoint answers exactly its declared body', () => {
  it('has one sample per endpoint and one route per endpoint', () => {
    expect(cases).toHaveLength(allEndpoints.length);
    for (const { label, endpoint, sample } of cases) {
      expect(sample, `${label} has no sample`).toBeTypeOf('function');
      expect(h.app.hasRoute({ method: endpoint.method, url: endpoint.path }), `${label} is not registered`).toBe(true);
    }
  });

  it('lists every endpoint in the generated OpenAPI document at /api/docs', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = res.json().paths as Record<string, Record<string, unknown>>;
    for (const { label, endpoint } of cases) {
      const path = endpoint.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      expect(paths[path]?.[endpoint.method.toLowerCase()], `${label} missing from OpenAPI`).toBeDefined();
    }
  });

  it.each(cases)('$label', async ({ endpoint, sample }) => {
    if (!sample) throw new Error('no sample');
    const res = await injectEndpoint(h.app, endpoint, await sample(fixtures));
    expect(res.status, JSON.stringify(res.body)).toBe(endpoint.status ?? 200);
    const parsed = endpoint.response.safeParse(res.body);
    expect(parsed.success, parsed.error?.message).toBe(true);
  });

  it.each(cases.filter((c) => c.endpoint.access === 'customer'))(
    '$label refuses a caller without a token in the one error shape',
    async ({ endpoint }) => {
      const params = Object.fromEntries(
        [...endpoint.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => [m[1] as string, 1]),
      );
      const res = await injectEndpoint(h.app, endpoint, { params });
      expect(res.status).toBe(401);
      expect(errorBody.parse(res.body).code).toBe('UNAUTHORIZED');
    },
  );
});
