import { NOTIFICATION_RULES } from '@ohgood/contract/notifications';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications, pushDeliveries, pushSubscriptions } from '../../db/schema';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { pay } from '../../test/payment-helpers';
import { type PushService, pushDevice, pushService, readOnDevice } from '../../test/push-service';
import { PUSH_MAX_ATTEMPTS, PUSH_RETRY_MINUTES } from './push';

/** docs/rules/notifications.md#N6: one device cannot break, hold up or lose another's push. */

const TIMEOUT_MS = 1000;
let h: Harness;
let service: PushService;
let merchant: Awaited<ReturnType<typeof createMerchant>>;
beforeAll(async () => {
  service = await pushService();
  // Events are dispatched by the tests' own drains only, so each test decides when pushes go out.
  h = await createHarness({
    config: { PUSH_ALLOW_LOOPBACK: true, PUSH_TIMEOUT_MS: TIMEOUT_MS, DISPATCH_EVENTS: false },
  });
  merchant = await createMerchant(h.database.db);
});
afterAll(async () => {
  await h.close();
  await service.close();
});

async function subscribe(token: string, endpoint: string) {
  const device = pushDevice(endpoint);
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/notifications/push/subscriptions',
    headers: bearer(token),
    payload: device.body,
  });
  expect(res.statusCode).toBe(200);
  return device;
}

/** A payment by the customer: its notice comes with the next dispatch. */
async function payment(token: string, price: number) {
  expect((await pay(h, merchant.headers, token, price)).res.statusCode).toBe(200);
}

/** Dispatches the recorded events (which wakes a push drain), then drains the pushes once more to the end. */
async function dispatchAndPush() {
  await h.app.relay.drain();
  return h.app.notices.push.drain();
}

const deliveriesOf = (endpoint: string) =>
  h.database.db
    .select({ attempts: pushDeliveries.attempts, nextAttemptAt: pushDeliveries.nextAttemptAt })
    .from(pushDeliveries)
    .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushDeliveries.subscriptionId))
    .where(eq(pushSubscriptions.endpoint, endpoint));

describe('one device cannot break another’s push', () => {
  it('a poisoned device next to a victim’s: the victim’s notice arrives, the poisoned one fails alone', async () => {
    const attacker = await h.signUp();
    const victim = await h.signUp();
    // subscribe refuses the poisoned key now …
    const refused = await h.app.inject({
      method: 'POST',
      url: '/api/notifications/push/subscriptions',
      headers: bearer(attacker.token),
      payload: {
        endpoint: `${service.origin}/ok/poisoned`,
        keys: { p256dh: 'not-a-key', auth: 'AAAAAAAAAAAAAAAAAAAAAA' },
      },
    });
    expect(refused.json().code).toBe('PUSH_KEYS_INVALID');
    // … but a row stored before it did is still sent to: its encryption throws at send time.
    await h.database.db.insert(pushSubscriptions).values({
      customerId: attacker.customerId,
      endpoint: `${service.origin}/ok/poisoned`,
      p256dh: 'not-a-key',
      auth: 'AAAAAAAAAAAAAAAAAAAAAA',
      createdAt: h.clock.now(),
    });
    const attackersPhone = await subscribe(attacker.token, `${service.origin}/ok/attacker-phone`);
    const victimsPhone = await subscribe(victim.token, `${service.origin}/ok/victim-phone`);
    // The attacker's notice is due first: it is handed out and sent in the same batch as the victim's.
    await payment(attacker.token, 1_100);
    await payment(victim.token, 4_400);
    const arrived = service.next('/ok/victim-phone');
    await dispatchAndPush();

    const plain = readOnDevice(victimsPhone, (await arrived).body);
    const [notice] = await h.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.customerId, victim.customerId));
    expect(JSON.parse(plain)).toMatchObject({ id: notice?.id, title: '결제 완료' });
    expect(notice?.body).toContain('4,400원');
    // The attacker's good device got its own notice; the poisoned one was never posted to and owes a retry.
    const toPhone = service.received.find((r) => r.path === '/ok/attacker-phone');
    const decrypted = readOnDevice(attackersPhone, toPhone?.body);
    expect(decrypted).toContain('1,100원');
    expect(service.count('/ok/poisoned')).toBe(0);
    expect(await deliveriesOf(`${service.origin}/ok/poisoned`)).toEqual([
      { attempts: 1, nextAttemptAt: new Date(h.clock.now().getTime() + (PUSH_RETRY_MINUTES[0] ?? 0) * 60_000) },
    ]);
    // Sent deliveries are settled (deleted) only after their attempt; nothing else is owed.
    expect(await deliveriesOf(`${service.origin}/ok/victim-phone`)).toEqual([]);
    expect(await deliveriesOf(`${service.origin}/ok/attacker-phone`)).toEqual([]);
  });

  it('black-holed devices do not delay another device’s push beyond the short timeout', async () => {
    const attacker = await h.signUp();
    const victim = await h.signUp();
    const holes = Array.from(
      { length: NOTIFICATION_RULES.pushDevicesMax },
      (_, i) => `/hole/${attacker.customerId}-${i}`,
    );
    for (const path of holes) await subscribe(attacker.token, `${service.origin}${path}`);
    await subscribe(victim.token, `${service.origin}/ok/victim-${victim.customerId}`);
    await payment(attacker.token, 2_200);
    await payment(victim.token, 3_300);

    const firstHole = Promise.race(holes.map((path) => service.next(path)));
    const victimArrived = service.next(`/ok/victim-${victim.customerId}`);
    const started = performance.now();
    await dispatchAndPush();
    const took = performance.now() - started;

    // Sequentially the victim would wait 10 timeouts; side by side it is sent while the holes still hang.
    expect((await victimArrived).at - (await firstHole).at).toBeLessThan(TIMEOUT_MS);
    // Every hole was tried once and given up after its own timeout, all at the same time.
    for (const path of holes) expect(service.count(path)).toBe(1);
    expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS);
    expect(took).toBeLessThan(3 * TIMEOUT_MS);
    for (const path of holes) {
      expect((await deliveriesOf(`${service.origin}${path}`)).map((d) => d.attempts)).toEqual([1]);
    }
  });
});

describe('retries with back-off; a device that keeps failing is dropped', () => {
  it('retries a failed push after each wait, never before, and drops the device after the last attempt', async () => {
    const customer = await h.signUp();
    const endpoint = `${service.origin}/fail/${customer.customerId}`;
    const path = `/fail/${customer.customerId}`;
    await subscribe(customer.token, endpoint);
    await payment(customer.token, 5_500);
    await dispatchAndPush();
    expect(service.count(path)).toBe(1);
    for (const [i, minutes] of PUSH_RETRY_MINUTES.entries()) {
      // Not before the wait is over …
      h.clock.advance(minutes * 60_000 - 1000);
      await h.app.notices.push.drain();
      expect(service.count(path)).toBe(i + 1);
      // … and once it is.
      h.clock.advance(1000);
      await h.app.notices.push.drain();
      expect(service.count(path)).toBe(i + 2);
    }
    expect(service.count(path)).toBe(PUSH_MAX_ATTEMPTS);
    // The last attempt failed too: the device is gone, with its deliveries.
    expect(
      await h.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint)),
    ).toEqual([]);
    expect(await deliveriesOf(endpoint)).toEqual([]);
    h.clock.advance(24 * 3_600_000);
    await h.app.notices.push.drain();
    expect(service.count(path)).toBe(PUSH_MAX_ATTEMPTS);
  });

  it('a device that fails once gets the notice on the retry, and keeps its subscription', async () => {
    const customer = await h.signUp();
    const path = `/flaky/${customer.customerId}`;
    const phone = await subscribe(customer.token, `${service.origin}${path}`);
    await payment(customer.token, 6_600);
    await dispatchAndPush();
    expect(service.count(path)).toBe(1);
    h.clock.advance((PUSH_RETRY_MINUTES[0] ?? 0) * 60_000);
    const retried = service.next(path);
    await h.app.notices.push.drain();
    const plain = readOnDevice(phone, (await retried).body);
    expect(plain).toContain('6,600원');
    expect(await deliveriesOf(`${service.origin}${path}`)).toEqual([]);
    const kept = await h.database.db
      .select()
      .from(pushSubscriptions)
      .where(
        and(
          eq(pushSubscriptions.customerId, customer.customerId),
          eq(pushSubscriptions.endpoint, `${service.origin}${path}`),
        ),
      );
    expect(kept).toHaveLength(1);
  });
});
