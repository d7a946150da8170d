import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness, secondInstance } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { pay } from '../../test/payment-helpers';
import { queueQuietly, webhookReceiver } from '../../test/webhook-receiver';
import { createWebhookSender } from './sender';
import { createWebhookService } from './service';

let h: Harness;
/** An instance that takes loopback URLs (development); `h` itself is production-like and refuses them. */
let dev: FastifyInstance;
beforeAll(async () => {
  h = await createHarness();
  dev = await secondInstance(h, { WEBHOOKS_ALLOW_LOOPBACK: true });
  // Only `dev` delivers: had `h`'s relay taken a payment's event, its sender (loopback refused) would have tried
  // first and put the delivery off by its back-off.
  await h.app.relay.stop();
});
afterAll(async () => {
  await dev.close();
  await h.close();
});

const register = (app: FastifyInstance, headers: Record<string, string>, url: string, events = ['payment.paid']) =>
  app.inject({ method: 'POST', url: '/api/merchant/webhooks', headers, payload: { url, events } });

it.each([
  ['plain http', 'http://shop.example.com/hooks'],
  ['a private address', 'https://10.0.0.5/hooks'],
  ['another private range', 'https://192.168.1.10/hooks'],
  ['the metadata address', 'https://169.254.169.254/latest/meta-data'],
  ['a private IPv6 address', 'https://[fd00::1]/hooks'],
  ['an IPv4-mapped private address', 'https://[::ffff:10.0.0.1]/hooks'],
  ['loopback without the flag', 'http://127.0.0.1:8080/hooks'],
  ['localhost without the flag', 'https://localhost/hooks'],
  ['credentials in the URL', 'https://user:pw@shop.example.com/hooks'],
  ['a bare host name', 'https://intranet/hooks'],
])('refuses %s', async (_, url) => {
  const merchant = await createMerchant(h.database.db);
  const res = await register(h.app, merchant.headers, url);
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ success: false, code: 'WEBHOOK_URL_REFUSED', field: 'url' });
  const list = await h.app.inject({ method: 'GET', url: '/api/merchant/webhooks', headers: merchant.headers });
  expect(list.json().items).toEqual([]);
});

it('refuses a name that resolves to a private address when registered', async () => {
  const merchant = await createMerchant(h.database.db);
  const service = createWebhookService(h.database.db, h.clock, {
    allowLoopback: false,
    resolve: async () => ['93.184.216.34', '10.1.2.3'],
  });
  await expect(
    service.create(merchant.merchantId, { url: 'https://shop.example.com/hooks', events: ['payment.paid'] }),
  ).rejects.toMatchObject({
    code: 'WEBHOOK_URL_REFUSED',
  });
});

it('a name re-pointed at a private address after registering is never connected to', async () => {
  const merchant = await createMerchant(h.database.db);
  const trap = await webhookReceiver();
  let answer = ['93.184.216.34'];
  const resolve = async () => answer;
  const service = createWebhookService(h.database.db, h.clock, { allowLoopback: false, resolve });
  const { endpoint } = await service.create(merchant.merchantId, {
    url: `https://rebind.ohgood.invalid:${new URL(trap.url).port}/hooks`,
    events: ['payment.paid'],
  });
  // The name now points at this machine, where the trap listens.
  answer = ['127.0.0.1'];
  await queueQuietly(h.database.db, h.clock.now(), merchant.merchantId, endpoint.endpointId, 'evt_rebinding');
  await createWebhookSender(h.database.db, h.clock, { allowLoopback: false, resolve }).drain();
  expect(trap.connections()).toBe(0);
  const [logged] = (await service.deliveries(merchant.merchantId)).items;
  expect(logged).toMatchObject({
    status: 'PENDING',
    responseCode: null,
    attempts: 1,
    error: 'refused: private address',
  });
  await trap.close();
});

it('takes loopback over http only where the deployment allows it, and answers the secret once', async () => {
  const merchant = await createMerchant(h.database.db);
  const res = await register(dev, merchant.headers, 'http://127.0.0.1:9/hooks', ['payment.paid', 'payment.refunded']);
  expect(res.statusCode).toBe(201);
  expect(res.json().secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
  const list = await dev.inject({ method: 'GET', url: '/api/merchant/webhooks', headers: merchant.headers });
  expect(list.json().items).toEqual([res.json().endpoint]);
  expect(list.body).not.toContain(res.json().secret);
});

it('only the events an endpoint takes are delivered; a changed list and a deletion apply to the next payment', async () => {
  const merchant = await createMerchant(h.database.db);
  const hook = await webhookReceiver();
  const created = await register(dev, merchant.headers, hook.url, ['payment.refunded']);
  const endpointId = created.json().endpoint.endpointId as string;
  const customer = await h.signUp();
  const send = async () => {
    await dev.relay.drain();
    await dev.webhooks.sender.drain();
  };
  await pay(h, merchant.headers, customer.token, 1000);
  await send();
  expect(hook.received).toHaveLength(0);
  const patched = await dev.inject({
    method: 'PATCH',
    url: `/api/merchant/webhooks/${endpointId}`,
    headers: merchant.headers,
    payload: { events: ['payment.paid', 'payment.paid'] },
  });
  expect(patched.json().events).toEqual(['payment.paid']);
  await pay(h, merchant.headers, customer.token, 1001);
  await send();
  expect(hook.events().map((e) => e.type)).toEqual(['payment.paid']);
  const removed = await dev.inject({
    method: 'DELETE',
    url: `/api/merchant/webhooks/${endpointId}`,
    headers: merchant.headers,
  });
  expect(removed.json()).toEqual({ deleted: true });
  await pay(h, merchant.headers, customer.token, 1002);
  await send();
  expect(hook.received).toHaveLength(1);
  await hook.close();
});

it("a hostile merchant can neither see nor touch another merchant's endpoints and deliveries", async () => {
  const owner = await createMerchant(h.database.db);
  const hostile = await createMerchant(h.database.db);
  const hook = await webhookReceiver();
  const created = await register(dev, owner.headers, hook.url);
  const endpointId = created.json().endpoint.endpointId as string;
  const test = await dev.inject({
    method: 'POST',
    url: `/api/merchant/webhooks/${endpointId}/test`,
    headers: owner.headers,
  });
  const deliveryId = test.json().deliveryId as number;
  await dev.webhooks.sender.drain();
  expect(hook.received).toHaveLength(1);

  const as = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    dev.inject({ method, url, headers: hostile.headers, ...(payload ? { payload } : {}) });
  expect((await as('GET', '/api/merchant/webhooks')).json().items).toEqual([]);
  expect((await as('GET', '/api/merchant/webhooks/deliveries')).json().items).toEqual([]);
  expect((await as('GET', `/api/merchant/webhooks/deliveries?endpointId=${endpointId}`)).json().items).toEqual([]);
  const replay = await as('POST', `/api/merchant/webhooks/deliveries/${deliveryId}/replay`);
  expect(replay.statusCode).toBe(404);
  expect(replay.json().code).toBe('WEBHOOK_DELIVERY_NOT_FOUND');
  for (const [method, url, payload] of [
    ['PATCH', `/api/merchant/webhooks/${endpointId}`, { events: ['payment.refunded'] }],
    ['DELETE', `/api/merchant/webhooks/${endpointId}`, undefined],
    ['POST', `/api/merchant/webhooks/${endpointId}/rotate-secret`, undefined],
    ['POST', `/api/merchant/webhooks/${endpointId}/test`, undefined],
  ] as const) {
    const res = await as(method, url, payload);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('WEBHOOK_ENDPOINT_NOT_FOUND');
  }
  // Nothing changed for the owner: same events, same secret (no rotation), nothing sent again.
  await dev.webhooks.sender.drain();
  expect(hook.received).toHaveLength(1);
  const list = await dev.inject({ method: 'GET', url: '/api/merchant/webhooks', headers: owner.headers });
  expect(list.json().items).toEqual([created.json().endpoint]);
  const noKey = await dev.inject({ method: 'GET', url: '/api/merchant/webhooks' });
  expect(noKey.statusCode).toBe(401);
  await hook.close();
});
