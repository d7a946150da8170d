import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app';
import { connectDatabase, type Database } from '../db/client';
import { customers, paymentRequests, purchases } from '../db/schema';
import { ManualClock } from '../lib/clock';
import { testConfig } from '../lib/config';
import { bearer } from '../test/harness';
import { ledgerSum, pointBalance } from '../test/ledger-assertions';
import { createMerchant } from '../test/merchant-fixture';
import { startDatabaseProxy, type TcpProxy } from '../test/tcp-proxy';
import { createTestDatabaseUrl } from '../test/test-database';

/*
 * The app on a real PostgreSQL reached through a TCP hop: cutting the hop is what a database restart or a
 * network cut looks like to the pool (open connections reset, new ones refused).
 */
let proxy: TcpProxy;
let database: Database;
let drop: () => Promise<void>;
let app: Awaited<ReturnType<typeof buildApp>>;

beforeAll(async () => {
  const target = await createTestDatabaseUrl();
  drop = target.drop;
  const started = await startDatabaseProxy(target.url);
  proxy = started.proxy;
  database = await connectDatabase(started.via(target.url), { kind: target.kind, migrate: false });
  app = await buildApp({
    config: testConfig(),
    database,
    clock: new ManualClock('2026-11-22T03:00:00Z'),
    jwtSecret: 'test-secret-test-secret-test-secret-1234',
  });
  await app.ready();
});
afterAll(async () => {
  await proxy?.restore().catch(() => undefined);
  await app?.close();
  await database?.close();
  await proxy?.close();
  await drop?.();
});

async function signUp(emailId = `outage-${Date.now()}@example.com`) {
  const body = {
    name: '테스트',
    emailId,
    pwd: 'password1!',
    birth: '1990-01-01',
    account: '12345678901',
    accountName: '국민',
  };
  expect((await app.inject({ method: 'POST', url: '/api/public/register', payload: body })).statusCode).toBe(200);
  const login = await app.inject({ method: 'POST', url: '/auth', payload: { emailId: body.emailId, pwd: body.pwd } });
  return login.json().accessToken as string;
}

/** A customer signed up through the API: its token and id. */
async function customer() {
  const emailId = `cut-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const token = await signUp(emailId);
  const [row] = await database.db.select({ id: customers.id }).from(customers).where(eq(customers.email, emailId));
  return { token, customerId: row?.id as number };
}

it('answers 503 SERVICE_UNAVAILABLE with Retry-After while the database is away, and serves again once it is back', async () => {
  const token = await signUp();
  const reads = [
    { method: 'GET' as const, url: '/api/mypage', headers: bearer(token) },
    { method: 'GET' as const, url: '/api/public/shorts/feeds?page=1' },
  ];
  for (const read of reads) expect((await app.inject(read)).statusCode).toBe(200);

  await proxy.cut();
  const during = [
    ...reads,
    { method: 'POST' as const, url: '/auth', payload: { emailId: 'nobody@example.com', pwd: 'password1!' } },
    { method: 'POST' as const, url: '/api/checkin/roulette', headers: bearer(token) },
  ];
  for (const request of during) {
    const res = await app.inject(request);
    expect(res.statusCode, request.url).toBe(503);
    expect(res.headers['retry-after'], request.url).toBe('5');
    expect(res.json(), request.url).toEqual({
      success: false,
      code: 'SERVICE_UNAVAILABLE',
      message: '잠시 후 다시 시도해주세요.',
    });
  }

  await proxy.restore();
  for (const read of reads) expect((await app.inject(read)).statusCode).toBe(200);
});

it('readiness is 503 while the database is away and 200 within a second of its return; liveness stays 200', async () => {
  const probe = (url: string) => app.inject({ method: 'GET', url });
  await expect.poll(async () => (await probe('/health/ready')).statusCode).toBe(200);
  await proxy.cut();
  await expect.poll(async () => (await probe('/health/ready')).statusCode, { timeout: 10_000 }).toBe(503);
  expect((await probe('/health/ready')).json()).toMatchObject({ status: 'not-ready', checks: { database: 'error' } });
  expect((await probe('/health')).statusCode).toBe(200);
  await proxy.restore();
  const back = Date.now();
  await expect.poll(async () => (await probe('/health/ready')).statusCode, { timeout: 10_000, interval: 20 }).toBe(200);
  // A sample every 250 ms: well within a second, with room for a busy machine.
  expect(Date.now() - back).toBeLessThan(1_000);
  expect((await probe('/health')).statusCode).toBe(200);
});

it('payments in flight at the cut are recorded once each when retried with their Idempotency-Key', async () => {
  const { token, customerId } = await customer();
  const merchant = await createMerchant(database.db, '장애상점');
  const prices = [1_100, 2_200, 3_300, 4_400, 5_500, 6_600];
  const requests: string[] = [];
  for (const price of prices) {
    const created = await app.inject({
      method: 'POST',
      url: '/api/merchant/payment-requests',
      headers: merchant.headers,
      payload: { orderId: `cut-${price}-${Date.now()}`, requestName: '장애 중 결제', totalPrice: price },
    });
    const { requestId, pinCode } = created.json();
    const valid = await app.inject({
      method: 'POST',
      url: '/api/payment/validate',
      headers: bearer(token),
      payload: { codeType: 'pincode', value: pinCode },
    });
    expect(valid.statusCode).toBe(200);
    requests.push(requestId);
  }
  const final = (requestId: string) =>
    app.inject({
      method: 'POST',
      url: `/api/payment/final?point=0&requestId=${requestId}`,
      headers: { ...bearer(token), 'idempotency-key': `cut-${requestId}` },
    });
  // All sent at once, and the database cut while they run: each is committed or not, never half.
  const inFlight = requests.map(final);
  await proxy.cut();
  const first = await Promise.all(inFlight);
  for (const res of first) {
    expect([200, 503]).toContain(res.statusCode);
    if (res.statusCode === 503) expect(res.headers['retry-after']).toBe('5');
  }
  await proxy.restore();
  // The client's retry: the same request with the same key until it is answered.
  const paid = new Map<string, number>();
  for (const requestId of requests) {
    await expect
      .poll(async () => {
        const res = await final(requestId);
        if (res.statusCode === 200) paid.set(requestId, res.json().result.paymentId);
        return res.statusCode;
      })
      .toBe(200);
  }
  // Asked once more, each answers the payment it already made.
  for (const requestId of requests) expect((await final(requestId)).json().result.paymentId).toBe(paid.get(requestId));
  const rows = await database.db.select().from(purchases).where(eq(purchases.customerId, customerId));
  expect(rows).toHaveLength(prices.length);
  expect(rows.map((row) => row.totalPrice).sort((a, b) => a - b)).toEqual(prices);
  expect(new Set(rows.map((row) => row.id))).toEqual(new Set(paid.values()));
  const states = await database.db
    .select({ status: paymentRequests.status })
    .from(paymentRequests)
    .where(inArray(paymentRequests.id, requests));
  expect(states.map((row) => row.status)).toEqual(prices.map(() => 'PAID'));
  expect(await ledgerSum(database.db, customerId)).toBe(await pointBalance(database.db, customerId));
  // No connection was left checked out by a transaction the cut ended (the pool would run dry).
  await expect.poll(() => database.pool.totalCount - database.pool.idleCount).toBe(0);
});
