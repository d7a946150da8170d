import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { domainEvents, webhookDeliveries } from '../../db/schema';
import { deferred } from '../../test/deferred';
import { createHarness, type Harness } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { pay } from '../../test/payment-helpers';
import { queueQuietly as queueEvent, type WebhookReceiver, webhookReceiver } from '../../test/webhook-receiver';
import { createWebhookSender } from './sender';

let h: Harness;
let verify: (rawBody: string, header: string, secret: string, nowMs?: number) => boolean;
const receivers: WebhookReceiver[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'ohgood-webhook-recipe-'));

beforeAll(async () => {
  h = await createHarness({ config: { WEBHOOKS_ALLOW_LOOPBACK: true } });
  // The README's verification example, run exactly as published.
  const readme = readFileSync(new URL('../../../../../README.md', import.meta.url), 'utf8');
  const recipe = /<!-- webhook-verification:start -->\n```js\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!recipe) throw new Error('README lost its webhook verification example');
  const file = join(scratch, 'verify.mjs');
  writeFileSync(file, recipe);
  ({ verifyOhGoodSignature: verify } = await import(pathToFileURL(file).href));
});
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});
afterAll(async () => {
  await h.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function receiver(answer?: Parameters<typeof webhookReceiver>[0]) {
  const r = await webhookReceiver(answer);
  receivers.push(r);
  return r;
}

async function register(headers: Record<string, string>, url: string, events = ['payment.paid', 'payment.refunded']) {
  const res = await h.app.inject({ method: 'POST', url: '/api/merchant/webhooks', headers, payload: { url, events } });
  expect(res.statusCode).toBe(201);
  return res.json() as { endpoint: { endpointId: string }; secret: string };
}

/** Relays the outbox and sends what is due now, each a pass begun after this call. */
async function relayAndSend() {
  await h.app.relay.drain();
  await h.app.webhooks.sender.drain();
}

async function paidRequest(merchant: { headers: Record<string, string> }, price = 3000) {
  const customer = await h.signUp();
  const { request, res } = await pay(h, merchant.headers, customer.token, price);
  expect(res.statusCode).toBe(200);
  return { requestId: request.requestId, customer };
}

const refund = (headers: Record<string, string>, requestId: string) =>
  h.app.inject({ method: 'POST', url: `/api/merchant/payment-requests/${requestId}/refund`, headers });

const deliveriesOf = async (headers: Record<string, string>) =>
  (await h.app.inject({ method: 'GET', url: '/api/merchant/webhooks/deliveries', headers })).json().items as Array<{
    deliveryId: number;
    eventId: string;
    eventType: string;
    status: string;
    attempts: number;
    responseCode: number | null;
    durationMs: number | null;
    nextAttemptAt: string | null;
  }>;

it('a paid payment reaches the endpoint signed so that the README recipe verifies it, and a forgery fails', async () => {
  const merchant = await createMerchant(h.database.db);
  const hook = await receiver();
  const { secret } = await register(merchant.headers, hook.url);
  const { requestId } = await paidRequest(merchant, 4500);
  await relayAndSend();
  expect(hook.received).toHaveLength(1);
  const [delivery] = hook.received;
  if (!delivery) throw new Error('no delivery');
  const header = String(delivery.headers['ohgood-signature']);
  const now = h.clock.now().getTime();
  expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  expect(verify(delivery.body, header, secret, now)).toBe(true);
  // Another secret, a changed body, or a stale timestamp do not verify.
  expect(verify(delivery.body, header, 'whsec_someone-else', now)).toBe(false);
  expect(verify(delivery.body.replace('4500', '450'), header, secret, now)).toBe(false);
  expect(verify(delivery.body, header, secret, now + 301_000)).toBe(false);
  const event = JSON.parse(delivery.body);
  expect(event).toMatchObject({
    type: 'payment.paid',
    data: { payment: { requestId, status: 'PAID', totalPrice: 4500 } },
  });
  expect(event.id).toMatch(/^evt_/);
  expect(event.data.payment).not.toHaveProperty('pinCode');
  const [logged] = await deliveriesOf(merchant.headers);
  expect(logged).toMatchObject({ eventId: event.id, status: 'SUCCEEDED', attempts: 1, responseCode: 200 });
  expect(logged?.durationMs).toBeGreaterThanOrEqual(0);
});

it('retries with back-off on non-2xx until the endpoint answers, keeping the event id', async () => {
  const merchant = await createMerchant(h.database.db);
  // 500, 503, then 200.
  const hook = await receiver((_, index) => (index < 2 ? ([500, 503][index] ?? 200) : 200));
  await register(merchant.headers, hook.url, ['payment.paid']);
  await paidRequest(merchant);
  await relayAndSend();
  expect(hook.received).toHaveLength(1);
  let [logged] = await deliveriesOf(merchant.headers);
  expect(logged).toMatchObject({ status: 'PENDING', attempts: 1, responseCode: 500 });
  // Not due before its back-off (30 s): a pass now sends nothing.
  h.clock.advance(29_000);
  await h.app.webhooks.sender.drain();
  expect(hook.received).toHaveLength(1);
  h.clock.advance(1_000);
  await h.app.webhooks.sender.drain();
  expect(hook.received).toHaveLength(2);
  [logged] = await deliveriesOf(merchant.headers);
  expect(logged).toMatchObject({ status: 'PENDING', attempts: 2, responseCode: 503 });
  // The second wait doubles: 60 s.
  expect(new Date(logged?.nextAttemptAt ?? 0).getTime() - h.clock.now().getTime()).toBe(60_000);
  h.clock.advance(60_000);
  await h.app.webhooks.sender.drain();
  expect(hook.received).toHaveLength(3);
  [logged] = await deliveriesOf(merchant.headers);
  expect(logged).toMatchObject({ status: 'SUCCEEDED', attempts: 3, responseCode: 200, nextAttemptAt: null });
  expect(new Set(hook.events().map((e) => e.id)).size).toBe(1);
});

it('gives up after three days of failures and a replay sends the same event again', async () => {
  const merchant = await createMerchant(h.database.db);
  let up = false;
  const hook = await receiver(() => (up ? 200 : 500));
  await register(merchant.headers, hook.url, ['payment.paid']);
  await paidRequest(merchant);
  await relayAndSend();
  for (let pass = 0; pass < 40; pass++) {
    const [logged] = await deliveriesOf(merchant.headers);
    if (logged?.status !== 'PENDING') break;
    h.clock.set(new Date(logged.nextAttemptAt ?? 0));
    await h.app.webhooks.sender.drain();
  }
  const [failed] = await deliveriesOf(merchant.headers);
  expect(failed?.status).toBe('FAILED');
  const attempts = failed?.attempts ?? 0;
  // 30 s doubling to 6 h apart, within the 3 days from queueing: 21 tries in all.
  expect(attempts).toBe(21);
  expect(hook.received).toHaveLength(attempts);
  up = true;
  const replay = await h.app.inject({
    method: 'POST',
    url: `/api/merchant/webhooks/deliveries/${failed?.deliveryId}/replay`,
    headers: merchant.headers,
  });
  expect(replay.statusCode).toBe(202);
  await h.app.webhooks.sender.drain();
  const [replayed] = await deliveriesOf(merchant.headers);
  expect(replayed).toMatchObject({ status: 'SUCCEEDED', responseCode: 200, attempts: attempts + 1 });
  const ids = hook.events().map((e) => e.id);
  expect(new Set(ids).size).toBe(1);
});

it("a payment's refund waits for its paid event to be delivered, per endpoint", async () => {
  const merchant = await createMerchant(h.database.db);
  // The first delivery fails once: the refund, already due, must not overtake it.
  const hook = await receiver((_, index) => (index === 0 ? 500 : 200));
  await register(merchant.headers, hook.url);
  const { requestId } = await paidRequest(merchant);
  await h.app.relay.drain();
  expect((await refund(merchant.headers, requestId)).statusCode).toBe(200);
  await relayAndSend();
  expect(hook.events().map((e) => e.type)).toEqual(['payment.paid']);
  h.clock.advance(30_000);
  await h.app.webhooks.sender.drain();
  expect(hook.events().map((e) => [e.type, e.data.payment?.status])).toEqual([
    ['payment.paid', 'PAID'],
    ['payment.paid', 'PAID'],
    ['payment.refunded', 'REFUNDED'],
  ]);
});

it('re-running an outbox batch adds no second delivery', async () => {
  const merchant = await createMerchant(h.database.db);
  const hook = await receiver();
  await register(merchant.headers, hook.url, ['payment.paid']);
  const { requestId, customer } = await paidRequest(merchant);
  await relayAndSend();
  // The relay's batch again, as after a crash between its consumers and its commit.
  await h.database.db
    .update(domainEvents)
    .set({ dispatchedAt: null })
    .where(eq(domainEvents.customerId, customer.customerId));
  await relayAndSend();
  const rows = await h.database.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.merchantId, merchant.merchantId));
  expect(rows).toHaveLength(1);
  expect(hook.events().map((e) => e.data.payment?.requestId)).toEqual([requestId]);
});

it('during a rotation both secrets sign for 24 hours, then only the new one', async () => {
  const merchant = await createMerchant(h.database.db);
  const hook = await receiver();
  const { endpoint, secret: oldSecret } = await register(merchant.headers, hook.url, ['payment.paid']);
  const rotated = await h.app.inject({
    method: 'POST',
    url: `/api/merchant/webhooks/${endpoint.endpointId}/rotate-secret`,
    headers: merchant.headers,
  });
  expect(rotated.statusCode).toBe(200);
  const newSecret = rotated.json().secret as string;
  expect(newSecret).not.toBe(oldSecret);
  expect(rotated.json().endpoint.previousSecretExpiresAt).toBe(
    new Date(h.clock.now().getTime() + 86_400_000).toISOString(),
  );
  await paidRequest(merchant);
  await relayAndSend();
  const during = hook.received[0];
  if (!during) throw new Error('no delivery');
  const header = String(during.headers['ohgood-signature']);
  expect(header.match(/v1=/g)).toHaveLength(2);
  const now = h.clock.now().getTime();
  expect(verify(during.body, header, oldSecret, now)).toBe(true);
  expect(verify(during.body, header, newSecret, now)).toBe(true);
  h.clock.advance(86_400_000);
  await paidRequest(merchant);
  await relayAndSend();
  const after = hook.received[1];
  if (!after) throw new Error('no second delivery');
  const afterHeader = String(after.headers['ohgood-signature']);
  expect(afterHeader.match(/v1=/g)).toHaveLength(1);
  expect(verify(after.body, afterHeader, newSecret, h.clock.now().getTime())).toBe(true);
  expect(verify(after.body, afterHeader, oldSecret, h.clock.now().getTime())).toBe(false);
});

it('two senders at once never send one delivery twice', async () => {
  const merchant = await createMerchant(h.database.db);
  const release = deferred<void>();
  // Every request is held open until all have arrived, so both senders are mid-send together.
  const hook = await receiver(async () => {
    await release.promise;
    return 200;
  });
  await register(merchant.headers, hook.url, ['payment.paid']);
  const customer = await h.signUp();
  const payments = 6;
  for (let i = 0; i < payments; i++) await pay(h, merchant.headers, customer.token, 1000 + i);
  // Two more senders, as other instances would run, race the app's own over the same deliveries.
  const other = createWebhookSender(h.database.db, h.clock, { allowLoopback: true });
  const mine = createWebhookSender(h.database.db, h.clock, { allowLoopback: true });
  await h.app.relay.drain();
  const racing = Promise.all([other.drain(), mine.drain(), h.app.webhooks.sender.drain()]);
  await hook.arrived(payments);
  release.resolve();
  await racing;
  const ids = hook.events().map((e) => e.id);
  expect(ids).toHaveLength(payments);
  expect(new Set(ids).size).toBe(payments);
  const rows = await h.database.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.merchantId, merchant.merchantId));
  expect(rows.every((row) => row.status === 'SUCCEEDED' && row.attempts === 1)).toBe(true);
});

it('a test event reaches only its endpoint, signed', async () => {
  const merchant = await createMerchant(h.database.db);
  const first = await receiver();
  const second = await receiver();
  const { endpoint, secret } = await register(merchant.headers, first.url);
  await register(merchant.headers, second.url);
  const sent = await h.app.inject({
    method: 'POST',
    url: `/api/merchant/webhooks/${endpoint.endpointId}/test`,
    headers: merchant.headers,
  });
  expect(sent.statusCode).toBe(202);
  await h.app.webhooks.sender.drain();
  expect(first.events().map((e) => e.type)).toEqual(['webhook.test']);
  expect(second.received).toHaveLength(0);
  const [hook] = first.received;
  expect(verify(hook?.body ?? '', String(hook?.headers['ohgood-signature']), secret, h.clock.now().getTime())).toBe(
    true,
  );
});

const queueQuietly = (merchantId: number, endpointId: string, id: string) =>
  queueEvent(h.database.db, h.clock.now(), merchantId, endpointId, id);

it('an endpoint that never answers times out and is tried again later', async () => {
  const merchant = await createMerchant(h.database.db);
  const never = deferred<number>();
  const hook = await receiver(() => never.promise);
  const { endpoint } = await register(merchant.headers, hook.url, ['payment.paid']);
  await queueQuietly(merchant.merchantId, endpoint.endpointId, 'evt_timeout_test');
  // A sender with a short time limit, so the test does not wait the real 10 s.
  await createWebhookSender(h.database.db, h.clock, { allowLoopback: true, timeoutMs: 300 }).drain();
  const [logged] = await deliveriesOf(merchant.headers);
  expect(logged).toMatchObject({ status: 'PENDING', attempts: 1, responseCode: null, error: 'timeout' });
  expect(new Date(logged?.nextAttemptAt ?? 0).getTime() - h.clock.now().getTime()).toBe(30_000);
  expect(hook.received).toHaveLength(1);
  never.resolve(200);
});

it('a delivery held by a sender that died mid-send goes out once its lease ends, from another instance', async () => {
  const merchant = await createMerchant(h.database.db);
  const hook = await receiver();
  const { endpoint } = await register(merchant.headers, hook.url, ['payment.paid']);
  // Queued, then claimed by a sender that dies before its POST: its lease stays.
  const now = h.clock.now();
  await queueQuietly(merchant.merchantId, endpoint.endpointId, 'evt_lease_test');
  await h.database.db
    .update(webhookDeliveries)
    .set({ leasedUntil: new Date(now.getTime() + 60_000), attempts: 1, lastAttemptAt: now })
    .where(eq(webhookDeliveries.eventId, 'evt_lease_test'));
  const survivor = createWebhookSender(h.database.db, h.clock, { allowLoopback: true });
  await survivor.drain();
  expect(hook.received).toHaveLength(0);
  h.clock.advance(60_000);
  await survivor.drain();
  expect(hook.events().map((e) => e.id)).toEqual(['evt_lease_test']);
  const [logged] = await deliveriesOf(merchant.headers);
  expect(logged).toMatchObject({ status: 'SUCCEEDED', attempts: 2 });
});
