import { NOTIFICATION_RULES } from '@ohgood/contract/notifications';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { notifications, pushDeliveries, pushSubscriptions } from '../../db/schema';
import { testConfig } from '../../lib/config';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { pay } from '../../test/payment-helpers';
import { pushDevice as device, type PushService, pushService, readOnDevice } from '../../test/push-service';
import { isAllowedPushEndpoint } from './push-endpoints';

let h: Harness;
let service: PushService;
beforeEach(async () => {
  service = await pushService();
  h = await createHarness({ config: { PUSH_ALLOW_LOOPBACK: true } });
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
    await h.app.relay.drain();
    await h.app.notices.push.drain();

    const delivered = service.received.find((r) => r.path === '/ok/phone');
    expect(delivered?.headers['content-encoding']).toBe('aes128gcm');
    // Signed with our VAPID key: the push service can tell who sends.
    expect(delivered?.headers.authorization).toMatch(new RegExp(`^vapid t=.+, k=${publicKey}$`));
    const plain = readOnDevice(phone, delivered?.body);
    const [notice] = await h.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.customerId, customer.customerId));
    expect(JSON.parse(plain)).toEqual({
      id: notice?.id,
      title: '결제 완료',
      body: notice?.body,
      link: notice?.link,
    });
    expect(notice?.body).toContain('8,800원');
    expect(notice?.pushedAt).not.toBeNull();
    // Each device's delivery is settled: sent, or gone with its device.
    expect(await h.database.db.select().from(pushDeliveries)).toEqual([]);

    // The 410 device is gone; the phone stays. A second drain pushes nothing again.
    const left = await h.database.db.select().from(pushSubscriptions);
    expect(left.map((s) => s.endpoint)).toEqual([`${service.origin}/ok/phone`]);
    const count = service.received.length;
    expect(await h.app.notices.push.drain()).toBe(0);
    expect(service.received).toHaveLength(count);
  });

  const subscribe = (token: string, body: object) =>
    h.app.inject({
      method: 'POST',
      url: '/api/notifications/push/subscriptions',
      headers: bearer(token),
      payload: body,
    });

  it('refuses endpoints off the push services and keys that are not a P-256 point and a 16-byte secret', async () => {
    const customer = await h.signUp();
    const keys = device('https://fcm.googleapis.com/fcm/send/a').body.keys;
    const offCurve = Buffer.from(keys.p256dh, 'base64url');
    offCurve[64] = (offCurve[64] ?? 0) ^ 1;
    const badEndpoints = {
      'plain http on a push host': 'http://fcm.googleapis.com/fcm/send/a',
      'another port of a push host': 'https://fcm.googleapis.com:8443/fcm/send/a',
      'a host off the list': 'https://internal.example/admin',
      'a look-alike host': 'https://fcm.googleapis.com.evil.example/a',
      'credentials in the URL': 'https://user:pw@fcm.googleapis.com/a',
    };
    for (const [what, endpoint] of Object.entries(badEndpoints)) {
      const res = await subscribe(customer.token, { endpoint, keys });
      expect([what, res.statusCode, res.json().code]).toEqual([what, 400, 'PUSH_ENDPOINT_NOT_ALLOWED']);
    }
    const badKeys = {
      'p256dh not a key': { ...keys, p256dh: 'not-a-key' },
      'p256dh off the curve': { ...keys, p256dh: offCurve.toString('base64url') },
      'p256dh compressed (33 bytes)': {
        ...keys,
        p256dh: Buffer.concat([Buffer.from([2]), offCurve.subarray(1, 33)]).toString('base64url'),
      },
      'auth of 15 bytes': { ...keys, auth: Buffer.alloc(15, 7).toString('base64url') },
      'auth not base64url': { ...keys, auth: 'AAAAAAAAAAAAAAAAAAAA+/' },
    };
    for (const [what, badKey] of Object.entries(badKeys)) {
      const res = await subscribe(customer.token, { endpoint: 'https://fcm.googleapis.com/a', keys: badKey });
      expect([what, res.statusCode, res.json().code]).toEqual([what, 400, 'PUSH_KEYS_INVALID']);
    }
    expect(await h.database.db.select().from(pushSubscriptions)).toEqual([]);
    // The same keys on https at port 443 (written or not) of a push service's subdomain are taken.
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/a',
      'https://updates.push.services.mozilla.com:443/wpush/v2/b',
    ]) {
      expect((await subscribe(customer.token, { endpoint, keys })).statusCode).toBe(200);
    }
  });

  it('takes a loopback endpoint only with the test allowance, which is off by default', () => {
    const config = testConfig();
    expect(config.PUSH_ALLOW_LOOPBACK).toBe(false);
    const rules = { hosts: config.PUSH_HOSTS, allowLoopback: config.PUSH_ALLOW_LOOPBACK };
    expect(isAllowedPushEndpoint(`${service.origin}/ok/phone`, rules)).toBe(false);
    expect(isAllowedPushEndpoint('https://localhost/ok', rules)).toBe(false);
    expect(isAllowedPushEndpoint(`${service.origin}/ok/phone`, { ...rules, allowLoopback: true })).toBe(true);
  });

  it(`keeps at most ${NOTIFICATION_RULES.pushDevicesMax} devices: a new one replaces the oldest, and says so`, async () => {
    const customer = await h.signUp();
    const max = NOTIFICATION_RULES.pushDevicesMax;
    const endpoints = Array.from({ length: max + 2 }, (_, i) => `${service.origin}/ok/device-${i}`);
    for (const endpoint of endpoints.slice(0, max)) {
      const res = await subscribe(customer.token, device(endpoint).body);
      expect(res.json().data).toEqual({ subscribed: true, replaced: 0 });
      h.clock.advance(1000);
    }
    // Subscribing device 0 again makes it the newest: device 1 is now the oldest.
    expect((await subscribe(customer.token, device(endpoints[0] as string).body)).json().data.replaced).toBe(0);
    h.clock.advance(1000);
    const eleventh = await subscribe(customer.token, device(endpoints[max] as string).body);
    expect(eleventh.json()).toMatchObject({
      data: { subscribed: true, replaced: 1 },
      message: `이 기기에서 알림을 받아요. 알림은 기기 ${max}대까지 받을 수 있어 가장 오래된 기기의 알림을 껐어요.`,
    });
    const left = await h.database.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.customerId, customer.customerId));
    expect(left).toHaveLength(max);
    expect(left.map((d) => d.endpoint).sort()).toEqual(endpoints.filter((_, i) => i !== 1 && i <= max).sort());
    // Another customer's devices are not counted or touched.
    const other = await h.signUp();
    expect((await subscribe(other.token, device(endpoints[max + 1] as string).body)).json().data.replaced).toBe(0);
  });
});
