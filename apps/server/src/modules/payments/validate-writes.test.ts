import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { createRequest, validatePin } from '../../test/payment-helpers';

let h: Harness;
let merchant: Awaited<ReturnType<typeof createMerchant>>;

beforeAll(async () => {
  h = await createHarness();
  merchant = await createMerchant(h.database.db, '검증상점');
});
afterAll(() => h.close());

/** The row version of a request: PostgreSQL gives an updated row a new xmin, even if no value changed. */
async function rowVersion(requestId: string): Promise<string> {
  const { rows } = await h.database.pool.query('select xmin::text as v from payment_requests where id = $1', [
    requestId,
  ]);
  return rows[0]?.v;
}

it('reserves a free request once; validating it again only reads (no write per re-validation)', async () => {
  const { token } = await h.signUp();
  const request = await createRequest(h, merchant.headers, 4_000);
  const before = await rowVersion(request.requestId);
  expect((await validatePin(h, token, request.pinCode)).statusCode).toBe(200);
  const reserved = await rowVersion(request.requestId);
  expect(reserved).not.toBe(before);
  for (let i = 0; i < 3; i++) {
    const again = await validatePin(h, token, request.pinCode);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ requestId: request.requestId, price: 4_000 });
  }
  expect(await rowVersion(request.requestId)).toBe(reserved);
});

it("a double tap of one customer's first validate gets 200 twice; another customer then gets 409", async () => {
  const me = await h.signUp();
  const other = await h.signUp();
  const request = await createRequest(h, merchant.headers, 2_500);
  const taps = await Promise.all([
    validatePin(h, me.token, request.pinCode),
    validatePin(h, me.token, request.pinCode),
  ]);
  expect(taps.map((r) => r.statusCode)).toEqual([200, 200]);
  expect((await validatePin(h, other.token, request.pinCode)).statusCode).toBe(409);
  const { rows } = await h.database.pool.query('select reserved_by from payment_requests where id = $1', [
    request.requestId,
  ]);
  expect(rows[0]?.reserved_by).toBe(me.customerId);
});
