import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { paymentRequests, purchases } from '../../db/schema';
import { createHarness, type Harness } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { createRequest, finalPay, validatePin } from '../../test/payment-helpers';

let h: Harness;
let merchant: Awaited<ReturnType<typeof createMerchant>>;
beforeAll(async () => {
  h = await createHarness();
  merchant = await createMerchant(h.database.db, '멱등상점');
});
afterAll(() => h.close());

async function validated(token: string, price: number) {
  const request = await createRequest(h, merchant.headers, price);
  const res = await validatePin(h, token, request.pinCode);
  if (res.statusCode !== 200) throw new Error(res.body);
  return request.requestId;
}
const statusOf = async (requestId: string) =>
  (await h.database.db.select().from(paymentRequests).where(eq(paymentRequests.id, requestId)))[0]?.status;

it('an Idempotency-Key reused for another request is refused (422) and never returns the first result', async () => {
  const { token, customerId } = await h.signUp();
  const key = { 'idempotency-key': 'key-A' };
  const a = await validated(token, 3_000);
  const first = await finalPay(h, token, a, 0, key);
  expect(first.statusCode).toBe(200);
  // The same call again: the stored answer, nothing written twice.
  const again = await finalPay(h, token, a, 0, key);
  expect(again.statusCode).toBe(200);
  expect(again.json()).toEqual(first.json());

  const b = await validated(token, 5_000);
  const reused = await finalPay(h, token, b, 0, key);
  expect(reused.statusCode).toBe(422);
  expect(reused.json()).toMatchObject({ success: false, code: 'IDEMPOTENCY_KEY_REUSED' });
  expect(reused.body).not.toContain(String(first.json().result.paymentId));
  expect(await statusOf(b)).toBe('ACTIVE');
  // Same request, other body (points): also another request.
  const otherPoints = await finalPay(h, token, a, 10, key);
  expect(otherPoints.statusCode).toBe(422);
  // B itself still pays with a fresh key.
  const paidB = await finalPay(h, token, b, 0, { 'idempotency-key': 'key-B' });
  expect(paidB.statusCode).toBe(200);
  expect(paidB.json().result.price).toBe(5_000);
  const rows = await h.database.db.select().from(purchases).where(eq(purchases.customerId, customerId));
  expect(rows.map((r) => r.totalPrice).sort()).toEqual([3_000, 5_000]);
});

it('an Idempotency-Key is scoped to the customer: another customer using the same key gets their own payment', async () => {
  const one = await h.signUp();
  const two = await h.signUp();
  const key = { 'idempotency-key': 'shared-key' };
  const r1 = await finalPay(h, one.token, await validated(one.token, 1_000), 0, key);
  const r2 = await finalPay(h, two.token, await validated(two.token, 2_000), 0, key);
  expect(r1.statusCode).toBe(200);
  expect(r2.statusCode).toBe(200);
  expect(r2.json().result.price).toBe(2_000);
  expect(r2.json().result.paymentId).not.toBe(r1.json().result.paymentId);
});

it('one key raced on two requests at once pays exactly one of them; the other is refused', async () => {
  const { token, customerId } = await h.signUp();
  const key = { 'idempotency-key': 'raced-key' };
  const [a, b] = [await validated(token, 1_100), await validated(token, 2_200)];
  const results = await Promise.all([finalPay(h, token, a, 0, key), finalPay(h, token, b, 0, key)]);
  expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422]);
  const rows = await h.database.db.select().from(purchases).where(eq(purchases.customerId, customerId));
  expect(rows).toHaveLength(1);
  const winner = results.find((r) => r.statusCode === 200)?.json().result;
  expect(rows[0]?.id).toBe(winner.paymentId);
  expect([await statusOf(a), await statusOf(b)].sort()).toEqual(['ACTIVE', 'PAID']);
});
