import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantPortalActions } from '../../db/schema';
import { bearer, createHarness, type Harness, secondInstance } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { createMerchantUser, portalPasswordOnly, signedInMerchantUser } from '../../test/merchant-user-fixture';
import { createRequest, pay } from '../../test/payment-helpers';
import { signedInOperator, totpAt } from '../../test/staff-fixture';

/** The merchant portal (ADR 0234–0236): merchant users, the guard's two doors, payments, refunds and keys. */

let h: Harness;
let admin: Record<string, string>;

beforeAll(async () => {
  h = await createHarness();
  admin = (await signedInOperator(h, 'ADMIN')).auth;
});
afterAll(() => h.close());

const get = (url: string, headers: Record<string, string>) => h.app.inject({ method: 'GET', url, headers });
const post = (url: string, headers: Record<string, string>, payload?: object) =>
  h.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });

describe('merchant users', () => {
  it('an ADMIN adds a user; the one-time link enrols them; they sign in with password and TOTP', async () => {
    const shop = await createMerchant(h.database.db, '포털상점');
    const created = await post(`/api/ops/merchants/${shop.merchantId}/users`, admin, {
      email: 'Owner@Shop.example.com',
      name: '김사장',
      reason: '가맹점 요청',
    });
    expect(created.statusCode).toBe(200);
    const link = created.json().enrolmentUrl as string;
    expect(link).toMatch(/^\/merchant\/portal\/enrol\/[A-Za-z0-9_-]{32}$/);
    const token = link.split('/').at(-1) as string;
    const info = await get(`/api/merchant/portal/enrolment/${token}`, {});
    expect(info.json()).toMatchObject({ email: 'owner@shop.example.com', name: '김사장', merchantName: '포털상점' });
    expect(info.json().otpauthUri).toContain('%EA%B0%80%EB%A7%B9%EC%A0%90'); // 가맹점, the portal's issuer
    const secret = info.json().secret as string;
    const enrol = async () =>
      post(
        `/api/merchant/portal/enrolment/${token}`,
        {},
        { password: 'shop-password-123', code: await totpAt(h, secret) },
      );
    expect((await enrol()).statusCode).toBe(200);
    h.clock.advance(30_000);
    // The link is spent.
    expect((await enrol()).json().code).toBe('ENROLMENT_INVALID');

    const first = await portalPasswordOnly(h, 'owner@shop.example.com', 'shop-password-123');
    expect(first.json().stage).toBe('TOTP');
    const pending = bearer(first.json().token);
    // Before the second factor the token opens nothing of the merchant's.
    expect((await get('/api/merchant/payments', pending)).statusCode).toBe(401);
    const totp = await post('/api/merchant/portal/auth/totp', pending, { code: await totpAt(h, secret) });
    expect(totp.json()).toMatchObject({ merchantId: shop.merchantId, merchantName: '포털상점', idleMinutes: 30 });
    expect((await get('/api/merchant/payments', pending)).statusCode).toBe(200);
    // The same code cannot complete a second session.
    const second = await portalPasswordOnly(h, 'owner@shop.example.com', 'shop-password-123');
    const reuse = await post('/api/merchant/portal/auth/totp', bearer(second.json().token), {
      code: await totpAt(h, secret),
    });
    expect(reuse.json().code).toBe('INVALID_TOTP');
    const users = await get(`/api/ops/merchants/${shop.merchantId}/users`, admin);
    expect(users.json().items).toEqual([
      expect.objectContaining({ email: 'owner@shop.example.com', enrolled: true, disabled: false, openSessions: 2 }),
    ]);
  });

  it('locks out after five wrong passwords (even the right one is then refused) and five wrong codes', async () => {
    const shop = await createMerchant(h.database.db);
    const user = await createMerchantUser(h, shop.merchantId);
    for (let i = 0; i < 5; i++) {
      expect((await portalPasswordOnly(h, user.email, 'wrong-password-0')).statusCode).toBe(401);
    }
    const locked = await portalPasswordOnly(h, user.email);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('TOO_MANY_LOGIN_ATTEMPTS');
    h.clock.advance(11 * 60_000);
    const first = await portalPasswordOnly(h, user.email);
    expect(first.statusCode).toBe(200);
    const pending = bearer(first.json().token);
    const right = await totpAt(h, user.totpSecret);
    const wrong = right === '000000' ? '111111' : '000000';
    // Six codes at once get five checks: the limit is counted before each check.
    const tries = await Promise.all(
      Array.from({ length: 6 }, () => post('/api/merchant/portal/auth/totp', pending, { code: wrong })),
    );
    expect(tries.map((r) => r.statusCode).sort()).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await post('/api/merchant/portal/auth/totp', pending, { code: right })).statusCode).toBe(429);
  });

  it('sessions end on sign-out and when an ADMIN ends them', async () => {
    const shop = await createMerchant(h.database.db);
    const one = await signedInMerchantUser(h, shop.merchantId);
    expect((await get('/api/merchant/portal/me', one.auth)).statusCode).toBe(200);
    expect((await post('/api/merchant/portal/auth/sign-out', one.auth)).statusCode).toBe(200);
    expect((await get('/api/merchant/portal/me', one.auth)).statusCode).toBe(401);

    const two = await signedInMerchantUser(h, shop.merchantId);
    const ended = await post(`/api/ops/merchant-users/${two.merchantUserId}/end-sessions`, admin, { reason: '분실' });
    expect(ended.statusCode).toBe(200);
    expect((await get('/api/merchant/payments', two.auth)).statusCode).toBe(401);
  });
});

describe('sessions across instances, idle time and a disabled merchant', () => {
  it('takes the password on one instance and the code on another; the session works on both', async () => {
    const shop = await createMerchant(h.database.db);
    const user = await createMerchantUser(h, shop.merchantId);
    const other = await secondInstance(h);
    try {
      const first = await portalPasswordOnly(h, user.email);
      const pending = bearer(first.json().token);
      const totp = await other.inject({
        method: 'POST',
        url: '/api/merchant/portal/auth/totp',
        headers: pending,
        payload: { code: await totpAt(h, user.totpSecret) },
      });
      expect(totp.statusCode).toBe(200);
      expect((await get('/api/merchant/payments', pending)).statusCode).toBe(200);
      const there = await other.inject({ method: 'GET', url: '/api/merchant/payments', headers: pending });
      expect(there.statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('opens nothing of a disabled merchant, and ends a session after 30 idle minutes', async () => {
    const closing = await createMerchant(h.database.db);
    const active = await signedInMerchantUser(h, closing.merchantId);
    const disabled = await post(`/api/ops/merchants/${closing.merchantId}/disable`, admin, { reason: '계약 해지' });
    expect(disabled.statusCode).toBe(200);
    expect((await get('/api/merchant/payments', active.auth)).statusCode).toBe(401);
    // A new sign-in gets no further than the password: the code step finds no usable session.
    const again = await portalPasswordOnly(h, active.email);
    const code = await totpAt(h, active.totpSecret, 30);
    expect((await post('/api/merchant/portal/auth/totp', bearer(again.json().token), { code })).statusCode).toBe(401);

    const shop = await createMerchant(h.database.db);
    const idle = await signedInMerchantUser(h, shop.merchantId);
    h.clock.advance(29 * 60_000);
    expect((await get('/api/merchant/portal/me', idle.auth)).statusCode).toBe(200);
    h.clock.advance(31 * 60_000);
    expect((await get('/api/merchant/portal/me', idle.auth)).statusCode).toBe(401);
    // The admin's own console session went idle too.
    admin = (await signedInOperator(h, 'ADMIN')).auth;
  });
});

describe('the guard: a key or a portal session', () => {
  it('both resolve the same merchant; keys never reach portal-only calls; other tokens are refused', async () => {
    const shop = await createMerchant(h.database.db);
    const user = await signedInMerchantUser(h, shop.merchantId);
    const { token } = await h.signUp();
    const request = await createRequest(h, shop.headers, 1500);
    const byKey = await get('/api/merchant/payments', shop.headers);
    const bySession = await get('/api/merchant/payments', user.auth);
    expect(byKey.json().items.map((p: { requestId: string }) => p.requestId)).toEqual([request.requestId]);
    expect(bySession.json()).toEqual(byKey.json());
    // An existing merchant route opens to the session too.
    const viaSession = await get(`/api/merchant/payment-requests/${request.requestId}`, user.auth);
    expect(viaSession.json()).toMatchObject({ requestId: request.requestId, status: 'ACTIVE' });
    // Key management takes a session, never a key.
    const withKey = await get('/api/merchant/portal/keys', shop.headers);
    expect(withKey.statusCode).toBe(401);
    expect(withKey.json().code).toBe('PORTAL_SESSION_REQUIRED');
    // Neither a customer's nor an operator's token is a portal token.
    expect((await get('/api/merchant/payments', bearer(token))).statusCode).toBe(401);
    expect((await get('/api/merchant/portal/keys', admin)).statusCode).toBe(401);
  });
});

describe('payments', () => {
  it("a merchant user never reads or refunds another merchant's payments", async () => {
    const mine = await createMerchant(h.database.db);
    const theirs = await createMerchant(h.database.db);
    const user = await signedInMerchantUser(h, mine.merchantId);
    const customer = await h.signUp();
    const { request } = await pay(h, theirs.headers, customer.token, 3000);
    const list = await get('/api/merchant/payments', user.auth);
    expect(list.json().items).toEqual([]);
    const byOrder = await get(`/api/merchant/payments?orderId=${encodeURIComponent('x')}`, user.auth);
    expect(byOrder.json().items).toEqual([]);
    const refund = await post(`/api/merchant/portal/payments/${request.requestId}/refund`, user.auth, {
      reason: '남의 결제',
    });
    expect(refund.statusCode).toBe(404);
    expect((await get(`/api/merchant/payment-requests/${request.requestId}`, theirs.headers)).json().status).toBe(
      'PAID',
    );
  });

  it('refunds with a reason through the refund path, recorded once with who did it', async () => {
    const shop = await createMerchant(h.database.db);
    const user = await signedInMerchantUser(h, shop.merchantId);
    const customer = await h.signUp();
    const { request } = await pay(h, shop.headers, customer.token, 4200);
    const refund = () =>
      post(`/api/merchant/portal/payments/${request.requestId}/refund`, user.auth, { reason: '고객 변심' });
    const [a, b] = await Promise.all([refund(), refund()]);
    expect(a.json()).toMatchObject({ requestId: request.requestId, status: 'REFUNDED' });
    expect(b.json()).toMatchObject({ requestId: request.requestId, status: 'REFUNDED' });
    const actions = await h.database.db
      .select()
      .from(merchantPortalActions)
      .where(eq(merchantPortalActions.targetId, request.requestId));
    expect(actions).toEqual([
      expect.objectContaining({ action: 'payment.refund', reason: '고객 변심', merchantUserId: user.merchantUserId }),
    ]);
    // The customer's side saw the refund: the payment is refunded in their history.
    const history = await get('/api/payment/history', bearer(customer.token));
    expect(JSON.stringify(history.json())).toContain('REFUNDED');
  });

  it('filters by status, order id and KST day, and pages by cursor without repeats while new rows arrive', async () => {
    const shop = await createMerchant(h.database.db);
    const user = await signedInMerchantUser(h, shop.merchantId);
    const customer = await h.signUp();
    const { request: paid } = await pay(h, shop.headers, customer.token, 1000);
    const made: string[] = [paid.requestId];
    for (let i = 0; i < 4; i++) {
      h.clock.advance(1000);
      made.push((await createRequest(h, shop.headers, 1100 + i)).requestId);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await get(`/api/merchant/payments?limit=2${cursor ? `&cursor=${cursor}` : ''}`, user.auth);
      seen.push(...page.json().items.map((p: { requestId: string }) => p.requestId));
      cursor = page.json().nextCursor;
      // A new request between pages lands on the first page, never in the middle of the walk.
      if (seen.length === 2) await createRequest(h, shop.headers, 999);
    } while (cursor);
    expect(seen).toEqual([...made].reverse());
    const paidOnly = await get('/api/merchant/payments?status=PAID', user.auth);
    expect(paidOnly.json().items.map((p: { requestId: string }) => p.requestId)).toEqual([paid.requestId]);
    const paidView = await get(`/api/merchant/payment-requests/${paid.requestId}`, shop.headers);
    const byOrder = await get(`/api/merchant/payments?orderId=${paidView.json().orderId}`, user.auth);
    expect(byOrder.json().items).toHaveLength(1);
    // KST 2026-11-22 holds them all; the day before holds none.
    expect((await get('/api/merchant/payments?from=2026-11-22&to=2026-11-22', user.auth)).json().items).toHaveLength(6);
    expect((await get('/api/merchant/payments?to=2026-11-21', user.auth)).json().items).toEqual([]);
    // Past their expiry, active requests read as EXPIRED.
    h.clock.advance(10 * 60_000);
    expect((await get('/api/merchant/payments?status=EXPIRED', user.auth)).json().items).toHaveLength(5);
  });
});

describe('API keys', () => {
  it('creates a key shown once, rotates it and revokes it: the public API follows at once', async () => {
    const shop = await createMerchant(h.database.db);
    const user = await signedInMerchantUser(h, shop.merchantId);
    const order = (key: string) =>
      createRequest(h, { 'x-merchant-key': key }, 1000).then(
        () => 200,
        () => 401,
      );
    const created = await post('/api/merchant/portal/keys', user.auth);
    expect(created.statusCode).toBe(201);
    const first = created.json() as { keyId: number; apiKey: string };
    expect(await order(first.apiKey)).toBe(200);
    const listed = (await get('/api/merchant/portal/keys', user.auth)).json().items;
    expect(listed[0]).toMatchObject({ keyId: first.keyId, hint: first.apiKey.slice(-4), revokedAt: null });
    expect(JSON.stringify(listed)).not.toContain(first.apiKey);

    const rotated = (await post(`/api/merchant/portal/keys/${first.keyId}/rotate`, user.auth)).json();
    expect(rotated.apiKey).not.toBe(first.apiKey);
    const refused = await createRequest(h, { 'x-merchant-key': first.apiKey }, 1000).catch((e: Error) => e.message);
    expect(refused).toContain('INVALID_MERCHANT_KEY');
    expect(await order(rotated.apiKey)).toBe(200);
    // The fixture's key still works: rotation touched only the one key.
    expect(await order(shop.key)).toBe(200);

    // Another merchant's user cannot touch this key.
    const other = await signedInMerchantUser(h, (await createMerchant(h.database.db)).merchantId);
    expect((await post(`/api/merchant/portal/keys/${rotated.keyId}/revoke`, other.auth)).statusCode).toBe(404);
    expect(await order(rotated.apiKey)).toBe(200);

    expect((await post(`/api/merchant/portal/keys/${rotated.keyId}/revoke`, user.auth)).statusCode).toBe(200);
    expect(await order(rotated.apiKey)).toBe(401);
    expect((await post(`/api/merchant/portal/keys/${rotated.keyId}/revoke`, user.auth)).statusCode).toBe(404);
    const actions = await h.database.db
      .select({ action: merchantPortalActions.action })
      .from(merchantPortalActions)
      .where(eq(merchantPortalActions.merchantUserId, user.merchantUserId));
    expect(actions.map((a) => a.action)).toEqual(['key.create', 'key.rotate', 'key.revoke']);
  });
});
