import { kstStartOfDay } from '@ohgood/contract/kst';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { customers, purchases, refundPayouts } from '../../db/schema';
import { txRetries } from '../../db/tx';
import { ensureDemoMerchants } from '../../seed/demo-merchants';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { ledgerSum, pointBalance } from '../../test/ledger-assertions';
import { createMerchant, grantPoints } from '../../test/merchant-fixture';
import { createRequest, finalPay, pay, validatePin } from '../../test/payment-helpers';
import { insertPurchase } from '../../test/purchase-fixture';
import { addApiKey } from '../merchants/keys';

/*
 * Every money path of one customer takes the customer row first (db/tx.ts). On
 * PostgreSQL (TEST_DATABASE_URL) these calls run on separate pooled connections with real row locks; before
 * the one lock order, refund and repayment locked customer and purchase rows in opposite orders and deadlocked.
 */
let h: Harness;
beforeAll(async () => {
  // The 10th: last month's statement is still payable and extendable.
  h = await createHarness({ now: new Date(kstStartOfDay('2026-11-10').getTime() + 12 * 3_600_000).toISOString() });
});
afterAll(() => h.close());

it('final, refund, repayment, extension and check-in racing for one customer: no 500, books balance', async () => {
  const { token, customerId } = await h.signUp();
  await h.database.db.update(customers).set({ gradePoint: 60 }).where(eq(customers.id, customerId));
  await grantPoints(h.database.db, customerId, 3_000, h.clock.now());
  const gs25 = (await ensureDemoMerchants(h.database.db)).get('GS25') ?? 0;
  const gs25Key = { 'x-merchant-key': 'lock-order-gs25-key' };
  await addApiKey(h.database.db, gs25, gs25Key['x-merchant-key']);
  const shop = await createMerchant(h.database.db, '잠금순서상점');

  // October lines (repaid and refunded at the same time), this month's paid requests (refunded) and
  // validated requests (paid), all for the same customer.
  const october: number[] = [];
  for (let i = 0; i < 12; i++) {
    october.push(
      await insertPurchase(h.database.db, {
        customerId,
        totalPrice: 10_000 + i * 1_000,
        pointEarned: 50,
        at: new Date(kstStartOfDay('2026-10-05').getTime() + i * 3_600_000),
      }),
    );
  }
  const octoberRequests = await h.database.db
    .select({ id: purchases.id, requestId: purchases.requestId })
    .from(purchases)
    .where(eq(purchases.customerId, customerId));
  const paid: string[] = [];
  for (let i = 0; i < 4; i++) paid.push((await pay(h, shop.headers, token, 2_000 + i, 100)).request.requestId);
  const ready: string[] = [];
  for (let i = 0; i < 4; i++) {
    const request = await createRequest(h, shop.headers, 3_000 + i);
    expect((await validatePin(h, token, request.pinCode)).statusCode).toBe(200);
    ready.push(request.requestId);
  }

  const refund = (requestId: string, headers: Record<string, string>) =>
    h.app.inject({ method: 'POST', url: `/api/merchant/payment-requests/${requestId}/refund`, headers });
  const calls = [
    ...octoberRequests.flatMap(({ id, requestId }) => [
      refund(requestId, gs25Key),
      h.app.inject({ method: 'POST', url: '/api/payment/immediately', headers: bearer(token), payload: [id] }),
    ]),
    ...paid.map((requestId) => refund(requestId, shop.headers)),
    ...ready.map((requestId, i) => finalPay(h, token, requestId, i * 100)),
    h.app.inject({ method: 'POST', url: '/api/payment/extension', headers: bearer(token) }),
    h.app.inject({ method: 'POST', url: '/api/payment/extension', headers: bearer(token) }),
    h.app.inject({ method: 'POST', url: '/api/checkin/roulette', headers: bearer(token) }),
    h.app.inject({ method: 'POST', url: '/api/checkin/roulette', headers: bearer(token) }),
  ];
  const deadlocksBefore = txRetries.deadlocks;
  const responses = await Promise.all(calls);
  // Not one deadlock was even retried: the paths never wait on each other in a cycle.
  expect(txRetries.deadlocks - deadlocksBefore).toBe(0);
  const statuses = responses.map((r) => r.statusCode);
  expect(statuses.filter((s) => s >= 500)).toEqual([]);
  for (const res of responses) expect([200, 409, 422]).toContain(res.statusCode);
  // Every paid request was refunded and every validated one paid.
  expect(responses.slice(24, 28).map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
  expect(responses.slice(28, 32).map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
  expect(
    responses
      .slice(-2)
      .map((r) => r.statusCode)
      .sort(),
  ).toEqual([200, 409]);

  // Books: each October line is REFUNDED (refunds always win or follow), a payout exists exactly for the
  // lines repaid before their refund, and the point balance is the ledger's sum.
  const lines = await h.database.db.select().from(purchases).where(eq(purchases.customerId, customerId));
  const octoberLines = lines.filter((l) => october.includes(l.id));
  expect(octoberLines.every((l) => l.status === 'REFUNDED')).toBe(true);
  const payouts = await h.database.db.select().from(refundPayouts).where(eq(refundPayouts.customerId, customerId));
  const repaidFirst = octoberLines.filter((l) => l.repaymentId !== null).map((l) => l.id);
  expect(payouts.map((p) => p.purchaseId).sort()).toEqual(repaidFirst.sort());
  expect(await pointBalance(h.database.db, customerId)).toBe(await ledgerSum(h.database.db, customerId));
  expect(await pointBalance(h.database.db, customerId)).toBeGreaterThanOrEqual(0);
});
