import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { createRequest } from '../../test/payment-helpers';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

it('refuses to cancel a request after its expiry with 409 and keeps it EXPIRED', async () => {
  const merchant = await createMerchant(h.database.db);
  const request = await createRequest(h, merchant.headers, 4_500);
  h.clock.advance(121_000);
  const url = `/api/merchant/payment-requests/${request.requestId}`;
  const cancel = await h.app.inject({ method: 'POST', url: `${url}/cancel`, headers: merchant.headers });
  expect(cancel.statusCode).toBe(409);
  expect(cancel.json()).toMatchObject({ success: false, code: 'REQUEST_EXPIRED' });
  expect(cancel.json().message).toContain('EXPIRED');
  const read = await h.app.inject({ method: 'GET', url, headers: merchant.headers });
  expect(read.json().status).toBe('EXPIRED');
});

it('still cancels an ACTIVE request before its expiry, and a repeated cancel answers the same', async () => {
  const merchant = await createMerchant(h.database.db);
  const request = await createRequest(h, merchant.headers, 4_500);
  h.clock.advance(119_000);
  const url = `/api/merchant/payment-requests/${request.requestId}/cancel`;
  const first = await h.app.inject({ method: 'POST', url, headers: merchant.headers });
  expect(first.statusCode).toBe(200);
  expect(first.json().status).toBe('CANCELLED');
  h.clock.advance(10_000);
  const again = await h.app.inject({ method: 'POST', url, headers: merchant.headers });
  expect(again.json().status).toBe('CANCELLED');
});
