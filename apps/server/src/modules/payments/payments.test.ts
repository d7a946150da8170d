import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, paymentRequests, purchases } from '../../db/schema';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { ledgerSum, pointBalance } from '../../test/ledger-assertions';
import { createMerchant, grantPoints } from '../../test/merchant-fixture';
import { createRequest, finalPay, pay, validatePin } from '../../test/payment-helpers';

let h: Harness;
let merchant: Awaited<ReturnType<typeof createMerchant>>;

beforeAll(async () => {
  h = await createHarness();
  merchant = await createMerchant(h.database.db, '스타벅스 테스트점', '식비');
});
afterAll(() => h.close());

describe('merchant API', () => {
  it('creates a request with a 6-digit PIN, a ≥128-bit QR token, an SVG deep link and a 120 s expiry', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/merchant/payment-requests',
      headers: merchant.headers,
      payload: { orderId: 'A-1', requestName: '라떼', totalPrice: 5500 },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.pinCode).toMatch(/^\d{6}$/);
    expect(Buffer.from(body.qrCode, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(body.qrImage).toContain('<svg');
    expect(body.status).toBe('ACTIVE');
    expect(new Date(body.expiresAt).getTime() - h.clock.now().getTime()).toBe(120_000);
  });

  it('is idempotent per orderId and refuses the same orderId with another body', async () => {
    const payload = { orderId: 'A-2', requestName: '케이크', totalPrice: 7000 };
    const first = await h.app.inject({
      method: 'POST',
      url: '/api/merchant/payment-requests',
      headers: merchant.headers,
      payload,
    });
    const again = await h.app.inject({
      method: 'POST',
      url: '/api/merchant/payment-requests',
      headers: merchant.headers,
      payload,
    });
    expect(again.json().requestId).toBe(first.json().requestId);
    const other = await h.app.inject({
      method: 'POST',
      url: '/api/merchant/payment-requests',
      headers: merchant.headers,
      payload: { ...payload, totalPrice: 7001 },
    });
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe('ORDER_ID_CONFLICT');
  });

  it('needs a valid key and validates the body', async () => {
    const url = '/api/merchant/payment-requests';
    const payload = { orderId: 'K', requestName: '물', totalPrice: 1000 };
    expect((await h.app.inject({ method: 'POST', url, payload })).statusCode).toBe(401);
    expect(
      (await h.app.inject({ method: 'POST', url, payload, headers: { 'x-merchant-key': 'nope' } })).statusCode,
    ).toBe(401);
    for (const bad of [
      { totalPrice: 0 },
      { totalPrice: 10_000_001 },
      { totalPrice: 1.5 },
      { requestName: 'x'.repeat(51) },
      { requestName: ' ' },
    ]) {
      const res = await h.app.inject({
        method: 'POST',
        url,
        headers: merchant.headers,
        payload: { ...payload, ...bad },
      });
      expect(res.statusCode).toBe(400);
    }
  });

  it("does not show one merchant another merchant's request", async () => {
    const other = await createMerchant(h.database.db, '다른상점');
    const request = await createRequest(h, merchant.headers, 1000);
    const res = await h.app.inject({
      method: 'GET',
      url: `/api/merchant/payment-requests/${request.requestId}`,
      headers: other.headers,
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('validate', () => {
  it('finds a request by PIN or by QR deep link and reserves it', async () => {
    const { token, customerId } = await h.signUp();
    await grantPoints(h.database.db, customerId, 300, h.clock.now());
    const request = await createRequest(h, merchant.headers, 4500, '카페라떼');
    const byPin = await validatePin(h, token, request.pinCode);
    expect(byPin.statusCode).toBe(200);
    expect(byPin.json()).toEqual({
      requestName: '카페라떼',
      price: 4500,
      point: 300,
      balance: 100_000,
      requestId: request.requestId,
    });
    const byQr = await h.app.inject({
      method: 'POST',
      url: '/api/payment/validate',
      headers: bearer(token),
      payload: { codeType: 'qrcode', value: `http://localhost:3000/qrpin?code=${request.qrCode}` },
    });
    expect(byQr.json().requestId).toBe(request.requestId);
    const [row] = await h.database.db.select().from(paymentRequests).where(eq(paymentRequests.id, request.requestId));
    expect(row?.reservedBy).toBe(customerId);
  });

  it('gives unknown, expired, paid and cancelled codes the same 404', async () => {
    const { token } = await h.signUp();
    const expired = await createRequest(h, merchant.headers, 1000);
    const cancelled = await createRequest(h, merchant.headers, 1000);
    await h.app.inject({
      method: 'POST',
      url: `/api/merchant/payment-requests/${cancelled.requestId}/cancel`,
      headers: merchant.headers,
    });
    const paid = await pay(h, merchant.headers, (await h.signUp()).token, 1000);
    h.clock.advance(121_000);
    const bodies = [];
    for (const pin of ['000000', expired.pinCode, cancelled.pinCode, paid.request.pinCode]) {
      const res = await validatePin(h, token, pin);
      expect(res.statusCode).toBe(404);
      bodies.push(res.json());
    }
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(bodies[0]).toEqual({ success: false, code: 'INVALID_CODE', message: '유효하지않은 코드입니다.' });
    const view = await h.app.inject({
      method: 'GET',
      url: `/api/merchant/payment-requests/${expired.requestId}`,
      headers: merchant.headers,
    });
    expect(view.json().status).toBe('EXPIRED');
  });

  it('gives another customer 409 while the request is reserved', async () => {
    const a = await h.signUp();
    const b = await h.signUp();
    const request = await createRequest(h, merchant.headers, 2000);
    expect((await validatePin(h, a.token, request.pinCode)).statusCode).toBe(200);
    const res = await validatePin(h, b.token, request.pinCode);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('REQUEST_RESERVED');
    const final = await finalPay(h, b.token, request.requestId);
    expect(final.statusCode).toBe(409);
  });

  it('locks out after 5 failed codes in 10 minutes (429), then allows again', async () => {
    const { token } = await h.signUp();
    for (let i = 0; i < 5; i++) expect((await validatePin(h, token, '999999')).statusCode).toBe(404);
    const request = await createRequest(h, merchant.headers, 1000);
    const locked = await validatePin(h, token, request.pinCode);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(/[가-힣]/);
    h.clock.advance(10 * 60 * 1000);
    const fresh = await createRequest(h, merchant.headers, 1000);
    expect((await validatePin(h, token, fresh.pinCode)).statusCode).toBe(200);
  });

  it('a code I already paid is refused but never counts towards the lock', async () => {
    const { token } = await h.signUp();
    const paid = await createRequest(h, merchant.headers, 1000);
    expect((await validatePin(h, token, paid.pinCode)).statusCode).toBe(200);
    expect((await finalPay(h, token, paid.requestId)).statusCode).toBe(200);
    const rescan = () =>
      h.app.inject({
        method: 'POST',
        url: '/api/payment/validate',
        headers: bearer(token),
        payload: { codeType: 'qrcode', value: `https://pay.example/qrpin?code=${paid.qrCode}` },
      });
    for (let i = 0; i < 6; i++) expect((await rescan()).statusCode).toBe(404);
    // Four real mistakes after that still leave room: the paid code's re-scans were not failures.
    for (let i = 0; i < 4; i++) expect((await validatePin(h, token, '999998')).statusCode).toBe(404);
    const next = await createRequest(h, merchant.headers, 1000);
    expect((await validatePin(h, token, next.pinCode)).statusCode).toBe(200);
  });

  it('refuses a suspended customer with 403 ACCOUNT_SUSPENDED', async () => {
    const { token, customerId } = await h.signUp();
    await h.database.db.update(customers).set({ suspended: true }).where(eq(customers.id, customerId));
    const request = await createRequest(h, merchant.headers, 1000);
    const res = await validatePin(h, token, request.pinCode);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('ACCOUNT_SUSPENDED');
  });
});

describe('final', () => {
  it('writes the purchase, the point use and earn, marks the request PAID and frees nothing twice', async () => {
    const { token, customerId } = await h.signUp();
    await grantPoints(h.database.db, customerId, 1000, h.clock.now());
    const request = await createRequest(h, merchant.headers, 25_000, '원두 1kg');
    await validatePin(h, token, request.pinCode);
    const res = await finalPay(h, token, request.requestId, 600);
    expect(res.statusCode).toBe(200);
    const { result } = res.json();
    // bronze earns 0.2 %: floor(24,400 × 0.002) = 48
    expect(result).toEqual({
      paymentId: expect.any(Number),
      price: 25_000,
      pointUsed: 600,
      pointEarned: 48,
      balance: 100_000 - 24_400,
      pointBalance: 1000 - 600 + 48,
    });
    const [purchase] = await h.database.db.select().from(purchases).where(eq(purchases.id, result.paymentId));
    expect(purchase).toMatchObject({
      price: 24_400,
      pointUsed: 600,
      totalPrice: 25_000,
      statementMonth: '2026-11',
      status: 'UNPAID',
    });
    expect(await pointBalance(h.database.db, customerId)).toBe(448);
    expect(await ledgerSum(h.database.db, customerId)).toBe(448);
    const view = await h.app.inject({
      method: 'GET',
      url: `/api/merchant/payment-requests/${request.requestId}`,
      headers: merchant.headers,
    });
    expect(view.json().status).toBe('PAID');
  });

  it('returns the first result on a repeat and honours Idempotency-Key, writing nothing', async () => {
    const { token, customerId } = await h.signUp();
    const request = await createRequest(h, merchant.headers, 3000);
    await validatePin(h, token, request.pinCode);
    const first = await finalPay(h, token, request.requestId, 0, { 'idempotency-key': 'tap-1' });
    const repeat = await finalPay(h, token, request.requestId, 0);
    const byKey = await finalPay(h, token, request.requestId, 0, { 'idempotency-key': 'tap-1' });
    expect(repeat.json()).toEqual(first.json());
    expect(byKey.json()).toEqual(first.json());
    const rows = await h.database.db.select().from(purchases).where(eq(purchases.customerId, customerId));
    expect(rows).toHaveLength(1);
  });

  it('enforces point bounds and the available limit', async () => {
    const { token, customerId } = await h.signUp();
    await grantPoints(h.database.db, customerId, 500, h.clock.now());
    const small = await createRequest(h, merchant.headers, 400);
    await validatePin(h, token, small.pinCode);
    expect((await finalPay(h, token, small.requestId, 401)).json().code).toBe('INVALID_POINT');
    const big = await createRequest(h, merchant.headers, 100_500);
    await validatePin(h, token, big.pinCode);
    expect((await finalPay(h, token, big.requestId, 501)).statusCode).toBe(422);
    const over = await finalPay(h, token, big.requestId, 0);
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ code: 'LIMIT_EXCEEDED', message: '한도가 부족합니다.' });
    // With all 500 points the owed amount is exactly the 100,000 limit.
    const fits = await finalPay(h, token, big.requestId, 500);
    expect(fits.statusCode).toBe(200);
    expect(fits.json().result.balance).toBe(0);
    expect((await finalPay(h, token, small.requestId, 0)).json().code).toBe('LIMIT_EXCEEDED');
    expect((await finalPay(h, token, small.requestId, -1)).statusCode).toBe(400);
  });

  it('refuses an expired request, one never validated, and an unknown one', async () => {
    const { token } = await h.signUp();
    const request = await createRequest(h, merchant.headers, 1000);
    expect((await finalPay(h, token, request.requestId)).json().code).toBe('REQUEST_NOT_VALIDATED');
    await validatePin(h, token, request.pinCode);
    h.clock.advance(121_000);
    const expired = await finalPay(h, token, request.requestId);
    expect(expired.statusCode).toBe(409);
    expect(expired.json().code).toBe('REQUEST_NOT_ACTIVE');
    const unknown = await finalPay(h, token, '00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
  });
});

describe('histories and my page', () => {
  it('lists payments and points newest first, filtered by KST month', async () => {
    const { token, customerId } = await h.signUp();
    await grantPoints(h.database.db, customerId, 100, h.clock.now());
    await pay(h, merchant.headers, token, 10_000, 100);
    h.clock.advance(60_000);
    await pay(h, merchant.headers, token, 2_000, 0);
    const history = await h.app.inject({ method: 'GET', url: '/api/payment/history', headers: bearer(token) });
    const items = history.json();
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({
      totalPrice: 2_000,
      point: 0,
      price: 2_000,
      status: 'UNPAID',
      merchant: '스타벅스 테스트점',
    });
    expect(items[1]).toMatchObject({ totalPrice: 10_000, point: 100, price: 9_900 });
    expect(items[0].date).toMatch(/\+09:00$/);
    const points = (await h.app.inject({ method: 'GET', url: '/api/point/history', headers: bearer(token) })).json();
    // A payment's lines name its merchant; the check-in grant has none.
    type PointLine = { pointExplain: string; point: number; merchant: string | null };
    expect(points.map((p: PointLine) => [p.pointExplain, p.point, p.merchant])).toEqual([
      ['결제 적립', 4, '스타벅스 테스트점'],
      ['결제 적립', 19, '스타벅스 테스트점'],
      ['포인트 사용', -100, '스타벅스 테스트점'],
      ['출석 체크', 100, null],
    ]);
    const other = await h.app.inject({
      method: 'GET',
      url: '/api/point/history?month=2026-10',
      headers: bearer(token),
    });
    expect(other.json()).toEqual([]);
    const bad = await h.app.inject({ method: 'GET', url: '/api/point/history?month=2026-13', headers: bearer(token) });
    expect(bad.statusCode).toBe(400);
  });

  it('serves my page from my own row only', async () => {
    const { token, emailId } = await h.signUp({ name: '박오굿', accountName: '하나', account: '9876543210' });
    const res = await h.app.inject({ method: 'GET', url: '/api/mypage?customerId=1', headers: bearer(token) });
    expect(res.json()).toEqual({
      name: '박오굿',
      emailId: emailId.toLowerCase(),
      gradeName: 'bronze',
      pointPercent: 0.2,
      gradePoint: 0,
      account: '****3210',
      accountName: '하나',
      point: 0,
    });
  });
});

describe('refund', () => {
  it('takes an unpaid purchase off the bill and reverses points without going negative', async () => {
    const { token, customerId } = await h.signUp();
    await grantPoints(h.database.db, customerId, 50, h.clock.now());
    const { request, res } = await pay(h, merchant.headers, token, 50_000, 50);
    expect(res.json().result.pointEarned).toBe(99);
    // Spend the earned points elsewhere so only part of them can be taken back.
    const other = await pay(h, merchant.headers, token, 1000, 90);
    expect(other.res.statusCode).toBe(200);
    const refund = await h.app.inject({
      method: 'POST',
      url: `/api/merchant/payment-requests/${request.requestId}/refund`,
      headers: merchant.headers,
    });
    expect(refund.statusCode).toBe(200);
    expect(refund.json().status).toBe('REFUNDED');
    const [purchase] = await h.database.db
      .select()
      .from(purchases)
      .where(and(eq(purchases.requestId, request.requestId)));
    expect(purchase?.status).toBe('REFUNDED');
    // 50 back ('결제 취소'), earned 99 taken back only as far as the balance allows.
    const balance = await pointBalance(h.database.db, customerId);
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(await ledgerSum(h.database.db, customerId)).toBe(balance);
    const history = (await h.app.inject({ method: 'GET', url: '/api/point/history', headers: bearer(token) })).json();
    expect(history.map((p: { pointExplain: string }) => p.pointExplain)).toEqual(
      expect.arrayContaining(['결제 취소', '적립 취소']),
    );
    const again = await h.app.inject({
      method: 'POST',
      url: `/api/merchant/payment-requests/${request.requestId}/refund`,
      headers: merchant.headers,
    });
    expect(again.json().status).toBe('REFUNDED');
    expect(await pointBalance(h.database.db, customerId)).toBe(balance);
  });

  it('refuses refunds of unpaid requests and after 90 days', async () => {
    const { token } = await h.signUp();
    const active = await createRequest(h, merchant.headers, 1000);
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/merchant/payment-requests/${active.requestId}/refund`,
      headers: merchant.headers,
    });
    expect(res.statusCode).toBe(409);
    const { request } = await pay(h, merchant.headers, token, 1000);
    h.clock.advance(91 * 24 * 3600 * 1000);
    const late = await h.app.inject({
      method: 'POST',
      url: `/api/merchant/payment-requests/${request.requestId}/refund`,
      headers: merchant.headers,
    });
    expect(late.statusCode).toBe(422);
    h.clock.advance(-91 * 24 * 3600 * 1000);
  });
});
