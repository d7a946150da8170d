import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
// http_ece is what browsers' push stacks implement: the test endpoint decrypts exactly as a device would.
import ece from 'http_ece';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { notifications, pushSubscriptions } from '../../db/schema';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { pay } from '../../test/payment-helpers';

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** A local push service: `/ok/*` accepts (201), `/gone/*` answers 410 like an expired subscription. */
async function pushService() {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      response.statusCode = request.url?.startsWith('/gone') ? 410 : 201;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, received, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** A browser's subscription: its own P-256 key pair and auth secret. */
function device(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    body: { endpoint, keys: { p256dh: ecdh.getPublicKey('base64url'), auth: auth.toString('base64url') } },
  };
}

let h: Harness;
let service: Awaited<ReturnType<typeof pushService>>;
beforeEach(async () => {
  service = await pushService();
  h = await createHarness({ config: { PUSH_HOSTS: ['127.0.0.1'] } });
});
afterEach(async () => {
  await h.close();
  await service.close();
});

describe('Web Push (docs/rules/notifications.md#N6)', () => {
  it('a subscription receives a payload that decrypts to the notice; a 410 removes the subscription', async () => {
    const customer = await h.signUp();
    const phone = device(`${service.origin}/ok/phone`);
    const stale = device(`${service.origin}/gone/old-laptop`);
    for (const d of [phone, stale]) {
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/notifications/push/subscriptions',
        headers: bearer(customer.token),
        payload: d.body,
      });
      expect(res.statusCode).toBe(200);
    }
    const key = await h.app.inject({
      method: 'GET',
      url: '/api/notifications/push/key',
      headers: bearer(customer.token),
    });
    const publicKey = key.json().data.publicKey as string;

    const merchant = await createMerchant(h.database.db);
    await pay(h, merchant.headers, customer.token, 8_800);
    await h.app.notices.dispatcher.drain();
    await h.app.notices.push.drain();

    const delivered = service.received.find((r) => r.path === '/ok/phone');
    expect(delivered?.headers['content-encoding']).toBe('aes128gcm');
    // Signed with our VAPID key: the push service can tell who sends.
    expect(delivered?.headers.authorization).toMatch(new RegExp(`^vapid t=.+, k=${publicKey}$`));
    const plain = ece.decrypt(delivered?.body, {
      version: 'aes128gcm',
      privateKey: phone.ecdh,
      authSecret: phone.auth,
    });
    const [notice] = await h.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.customerId, customer.customerId));
    expect(JSON.parse(plain.toString('utf8'))).toEqual({
      id: notice?.id,
      title: '결제 완료',
      body: notice?.body,
      link: notice?.link,
    });
    expect(notice?.body).toContain('8,800원');
    expect(notice?.pushedAt).not.toBeNull();

    // The 410 device is gone; the phone stays. A second drain pushes nothing again.
    const left = await h.database.db.select().from(pushSubscriptions);
    expect(left.map((s) => s.endpoint)).toEqual([`${service.origin}/ok/phone`]);
    const count = service.received.length;
    expect(await h.app.notices.push.drain()).toBe(0);
    expect(service.received).toHaveLength(count);
  });

  it('refuses an endpoint that is not on a push service', async () => {
    const customer = await h.signUp();
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/notifications/push/subscriptions',
      headers: bearer(customer.token),
      payload: device('https://internal.example/admin').body,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('PUSH_ENDPOINT_NOT_ALLOWED');
  });
});
