import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../test/harness';
import { createMerchant } from '../test/merchant-fixture';
import { requireMerchant } from './auth-guard';

let h: Harness;
let reached = 0;
beforeAll(async () => {
  h = await createHarness({
    extend(app) {
      // A new merchant route that only declares its access and never checks the key itself.
      app.get('/api/merchant/test-only', { config: { access: 'merchant' } }, async (request) => {
        reached += 1;
        return { merchantId: requireMerchant(request) };
      });
    },
  });
});
afterAll(() => h.close());

it('authenticates a route that only declares access merchant: no key or a bad key never reaches the handler', async () => {
  const none = await h.app.inject({ method: 'GET', url: '/api/merchant/test-only' });
  expect(none.statusCode).toBe(401);
  expect(none.json()).toMatchObject({ success: false, code: 'MERCHANT_KEY_REQUIRED' });
  const bad = await h.app.inject({
    method: 'GET',
    url: '/api/merchant/test-only',
    headers: { 'x-merchant-key': 'nope' },
  });
  expect(bad.statusCode).toBe(401);
  expect(bad.json()).toMatchObject({ success: false, code: 'INVALID_MERCHANT_KEY' });
  // A customer token is not a merchant key.
  const { token } = await h.signUp();
  const customer = await h.app.inject({
    method: 'GET',
    url: '/api/merchant/test-only',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(customer.statusCode).toBe(401);
  expect(reached).toBe(0);

  const merchant = await createMerchant(h.database.db);
  const ok = await h.app.inject({ method: 'GET', url: '/api/merchant/test-only', headers: merchant.headers });
  expect(ok.statusCode).toBe(200);
  expect(ok.json()).toEqual({ merchantId: merchant.merchantId });
  expect(reached).toBe(1);
});
