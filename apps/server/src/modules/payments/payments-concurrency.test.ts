import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { customers, pointLedger, purchases } from '../../db/schema';
import { testConfig } from '../../lib/config';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { createMerchant, grantPoints } from '../../test/merchant-fixture';
import { createRequest, finalPay, pay, validatePin } from '../../test/payment-helpers';

let h: Harness;
let merchant: Awaited<ReturnType<typeof createMerchant>>;

beforeAll(async () => {
  h = await createHarness();
  merchant = await createMerchant(h.database.db, '동시성상점');
});
afterAll(() => h.close());

async function invariants(customerId: number) {
  const [customer] = await h.database.db.select().from(customers).where(eq(customers.id, customerId));
  const [ledger] = await h.database.db
    .select({ sum: sql<string>`coalesce(sum(${pointLedger.amount}), 0)` })
    .from(pointLedger)
    .where(eq(pointLedger.customerId, customerId));
  return { balance: customer?.pointBalance ?? -1, ledger: Number(ledger?.sum ?? 0) };
}

describe('payments under concurrency', () => {
  it('20 simultaneous finals of one request make exactly one purchase; the rest get the same result or 409', async () => {
    const { token, customerId } = await h.signUp();
    await grantPoints(h.database.db, customerId, 200, h.clock.now());
    const request = await createRequest(h, merchant.headers, 9_000);
    await validatePin(h, token, request.pinCode);
    const responses = await Promise.all(Array.from({ length: 20 }, () => finalPay(h, token, request.requestId, 200)));
    const ok = responses.filter((r) => r.statusCode === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of responses) expect([200, 409]).toContain(r.statusCode);
    expect(new Set(ok.map((r) => r.body)).size).toBe(1);
    const rows = await h.database.db.select().from(purchases).where(eq(purchases.customerId, customerId));
    expect(rows).toHaveLength(1);
    const { balance, ledger } = await invariants(customerId);
    expect(balance).toBe(ledger);
    expect(balance).toBe(200 - 200 + Math.floor((8_800 * 2) / 1000));
  });

  it('the same final on two instances at once: one purchase, every caller gets its result', async () => {
    // Identical calls on one instance share one run (a double tap); across instances, and between calls
    // with different points, only the database's row locks keep the payment single.
    const second = await buildApp({
      config: testConfig(),
      database: h.database,
      clock: h.clock,
      jwtSecret: 'test-secret-test-secret-test-secret-1234',
    });
    try {
      const { token, customerId } = await h.signUp();
      await grantPoints(h.database.db, customerId, 300, h.clock.now());
      const request = await createRequest(h, merchant.headers, 9_000);
      await validatePin(h, token, request.pinCode);
      const instances = [h, { ...h, app: second }];
      const responses = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          finalPay(instances[i % 2] ?? h, token, request.requestId, i % 3 ? 100 : 0),
        ),
      );
      for (const r of responses) expect(r.statusCode).toBe(200);
      expect(new Set(responses.map((r) => r.body)).size).toBe(1);
      const rows = await h.database.db.select().from(purchases).where(eq(purchases.customerId, customerId));
      expect(rows).toHaveLength(1);
      const { balance, ledger } = await invariants(customerId);
      expect(balance).toBe(ledger);
      expect(balance).toBe(300 - (rows[0]?.pointUsed ?? 0) + (rows[0]?.pointEarned ?? 0));
    } finally {
      await second.close();
    }
  });

  it('finals of many requests racing past the limit never overdraw the limit or the points', async () => {
    const { token, customerId } = await h.signUp();
    await grantPoints(h.database.db, customerId, 5_000, h.clock.now());
    // 12 × 15,000 = 180,000 against a 100,000 bronze limit; each tries to use 1,000 of 5,000 points.
    const requests = [];
    for (let i = 0; i < 12; i++) {
      const request = await createRequest(h, merchant.headers, 15_000);
      await validatePin(h, token, request.pinCode);
      requests.push(request);
    }
    const responses = await Promise.all(requests.map((r) => finalPay(h, token, r.requestId, 1_000)));
    const paid = responses.filter((r) => r.statusCode === 200);
    const refused = responses.filter((r) => r.statusCode === 422);
    expect(paid.length + refused.length).toBe(12);
    const rows = await h.database.db.select().from(purchases).where(eq(purchases.customerId, customerId));
    const owed = rows.reduce((sum, row) => sum + row.price, 0);
    expect(rows).toHaveLength(paid.length);
    expect(owed).toBeLessThanOrEqual(100_000);
    // Points run out after 5 uses, and the limit after 7 purchases of 14,000 owed.
    expect(paid.length).toBeLessThanOrEqual(7);
    const { balance, ledger } = await invariants(customerId);
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(balance).toBe(ledger);
  });
});

describe('ledger property', () => {
  it('over random purchases, refunds and rewards: balance = Σ ledger, nothing negative', async () => {
    const step = fc.oneof(
      fc.record({
        kind: fc.constant('buy' as const),
        price: fc.integer({ min: 1, max: 30_000 }),
        usePoints: fc.nat({ max: 3_000 }),
      }),
      fc.record({ kind: fc.constant('refund' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('reward' as const), amount: fc.integer({ min: 1, max: 500 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const { token, customerId } = await h.signUp();
        const paidRequests: string[] = [];
        for (const s of steps) {
          if (s.kind === 'reward') {
            await grantPoints(h.database.db, customerId, s.amount, h.clock.now());
          } else if (s.kind === 'buy') {
            const { balance } = await invariants(customerId);
            const point = Math.min(s.usePoints, balance, s.price);
            const { request, res } = await pay(h, merchant.headers, token, s.price, point);
            expect([200, 422]).toContain(res.statusCode);
            if (res.statusCode === 200) paidRequests.push(request.requestId);
          } else if (paidRequests.length > 0) {
            const requestId = paidRequests[s.pick % paidRequests.length];
            const res = await h.app.inject({
              method: 'POST',
              url: `/api/merchant/payment-requests/${requestId}/refund`,
              headers: merchant.headers,
            });
            expect(res.statusCode).toBe(200);
          }
          const { balance, ledger } = await invariants(customerId);
          expect(balance).toBeGreaterThanOrEqual(0);
          expect(balance).toBe(ledger);
        }
        const info = await h.app.inject({ method: 'GET', url: '/api/mypage', headers: bearer(token) });
        expect(info.json().point).toBe((await invariants(customerId)).ledger);
      }),
      { numRuns: 15 },
    );
  });
});
