import { WEBHOOK_RULES } from '@ohgood/contract/webhooks';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { webhookDeliveries, webhookEvents } from '../../db/schema';
import { rowsOf, withTx } from '../../db/tx';
import { pruneExpired } from '../../jobs/prune-job';
import { deferred } from '../../test/deferred';
import { createHarness, type Harness } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { queueQuietly, webhookReceiver } from '../../test/webhook-receiver';
import { PRUNE_BATCH, pruneOrphanWebhookEvents, pruneWebhookDeliveries } from './retention';
import { createWebhookSender } from './sender';

/*
 * The daily prune of merchant webhook deliveries (docs/rules/webhooks.md#W9): delivered ones after 30 days,
 * given-up ones after 90, never a pending one, with the delivery log still answering; and the events an
 * endpoint's deletion left without any delivery, once older than 90 days.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { WEBHOOKS_ALLOW_LOOPBACK: true } });
});
afterAll(() => h.close());

const DAY = 86_400_000;
let sequence = 0;

async function merchantWithEndpoint(url = 'http://127.0.0.1:9/hooks') {
  const merchant = await createMerchant(h.database.db, '보관상점');
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/merchant/webhooks',
    headers: merchant.headers,
    payload: { url, events: ['payment.paid'] },
  });
  expect(res.statusCode).toBe(201);
  return { ...merchant, endpointId: res.json().endpoint.endpointId as string };
}

/** A test event's delivery to the endpoint, left as it ended: its status and last attempt `ageDays` ago. */
async function delivery(
  shop: { merchantId: number; endpointId: string },
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED',
  ageDays: number,
) {
  const at = new Date(h.clock.now().getTime() - ageDays * DAY);
  const eventId = `evt_retention_${++sequence}`;
  await queueQuietly(h.database.db, at, shop.merchantId, shop.endpointId, eventId);
  const [row] = await h.database.db
    .update(webhookDeliveries)
    .set({ status, lastAttemptAt: status === 'PENDING' ? null : at, attempts: status === 'PENDING' ? 0 : 1 })
    .where(eq(webhookDeliveries.eventId, eventId))
    .returning({ id: webhookDeliveries.id });
  if (!row) throw new Error('delivery not queued');
  return { id: row.id, eventId };
}

const stored = async (ids: number[]) =>
  (
    await h.database.db
      .select({ id: webhookDeliveries.id, status: webhookDeliveries.status })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.id, ids))
      .orderBy(webhookDeliveries.id)
  ).map((row) => [row.id, row.status]);

const logOf = async (headers: Record<string, string>) => {
  const res = await h.app.inject({ method: 'GET', url: '/api/merchant/webhooks/deliveries', headers });
  expect(res.statusCode).toBe(200);
  return (res.json().items as Array<{ deliveryId: number; status: string }>).map((d) => d.deliveryId).sort();
};

it('drops delivered deliveries after 30 days and given-up ones after 90, keeping pending ones and the log', async () => {
  const shop = await merchantWithEndpoint();
  const { deliveredRetentionDays: kept, failedRetentionDays: keptFailed } = WEBHOOK_RULES;
  const oldDelivered = await delivery(shop, 'SUCCEEDED', kept + 1);
  const recentDelivered = await delivery(shop, 'SUCCEEDED', kept - 1);
  const oldFailed = await delivery(shop, 'FAILED', keptFailed + 1);
  const failedWithinItsRetention = await delivery(shop, 'FAILED', kept + 1);
  const oldPending = await delivery(shop, 'PENDING', keptFailed + 10);

  const result = await withTx(h.database.db, (tx) => pruneExpired(tx, '2026-11-22', h.clock.now()));
  expect(result.webhookDeliveries).toBe(2);
  const left = [recentDelivered, failedWithinItsRetention, oldPending].map((d) => d.id);
  expect(
    await stored([oldDelivered, recentDelivered, oldFailed, failedWithinItsRetention, oldPending].map((d) => d.id)),
  ).toEqual([
    [recentDelivered.id, 'SUCCEEDED'],
    [failedWithinItsRetention.id, 'FAILED'],
    [oldPending.id, 'PENDING'],
  ]);
  // Their events went with them; the kept deliveries' events stay, and the log lists exactly what is kept.
  const events = await h.database.db
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(inArray(webhookEvents.id, [oldDelivered.eventId, oldFailed.eventId, recentDelivered.eventId]));
  expect(events.map((e) => e.id)).toEqual([recentDelivered.eventId]);
  expect(await logOf(shop.headers)).toEqual(left.sort());
  // Run again: nothing more is over.
  expect(await withTx(h.database.db, (tx) => pruneWebhookDeliveries(tx, h.clock.now()))).toBe(0);
});

it('prunes more than one batch, and the plan reads the settled index, not the table', async () => {
  const shop = await merchantWithEndpoint();
  const count = PRUNE_BATCH + 3;
  for (let i = 0; i < count; i += 1) await delivery(shop, 'SUCCEEDED', WEBHOOK_RULES.deliveredRetentionDays + 2);
  expect(await withTx(h.database.db, (tx) => pruneWebhookDeliveries(tx, h.clock.now()))).toBe(count);
  expect(await logOf(shop.headers)).toEqual([]);
  await h.database.db.execute(sql`analyze webhook_deliveries`);
  const plan = await rowsOf<Record<string, string>>(
    h.database.db,
    sql`explain select id from webhook_deliveries where status = 'SUCCEEDED' and last_attempt_at < now()
      order by last_attempt_at, id limit 500`,
  );
  expect(JSON.stringify(plan)).toContain('webhook_deliveries_settled_idx');
});

it('a prune racing a replay of an old given-up delivery loses nothing: the replayed delivery stays pending', async () => {
  const shop = await merchantWithEndpoint();
  const old = await delivery(shop, 'FAILED', WEBHOOK_RULES.failedRetentionDays + 5);
  const replayHolds = deferred<void>();
  const replayHasRow = deferred<void>();
  // The replay's transaction takes the row first and makes it pending; the prune runs while it is open.
  const replay = withTx(h.database.db, async (tx) => {
    await tx.update(webhookDeliveries).set({ status: 'PENDING' }).where(eq(webhookDeliveries.id, old.id));
    replayHasRow.resolve();
    await replayHolds.promise;
  });
  await replayHasRow.promise;
  const prune = withTx(h.database.db, (tx) => pruneWebhookDeliveries(tx, h.clock.now()));
  replayHolds.resolve();
  await replay;
  expect(await prune).toBe(0);
  expect(await stored([old.id])).toEqual([[old.id, 'PENDING']]);
});

it('a prune while a sender is mid-attempt on a pending delivery leaves it to finish and be logged', async () => {
  const release = deferred<number>();
  const hook = await webhookReceiver(() => release.promise);
  try {
    const shop = await merchantWithEndpoint(hook.url);
    const sending = await delivery(shop, 'PENDING', 0);
    const sender = createWebhookSender(h.database.db, h.clock, { allowLoopback: true });
    const drained = sender.drain();
    await hook.arrived(1);
    // Even a prune a year on (which drops the earlier tests' settled rows) leaves the pending one alone.
    const later = new Date(h.clock.now().getTime() + 365 * DAY);
    await withTx(h.database.db, (tx) => pruneWebhookDeliveries(tx, later));
    expect(await stored([sending.id])).toEqual([[sending.id, 'PENDING']]);
    release.resolve(200);
    await drained;
    expect(await stored([sending.id])).toEqual([[sending.id, 'SUCCEEDED']]);
    expect(await logOf(shop.headers)).toEqual([sending.id]);
  } finally {
    await hook.close();
  }
});

it("a deleted endpoint's events go once past the longest retention; an event another endpoint still has stays", async () => {
  const shop = await merchantWithEndpoint();
  const other = await h.app.inject({
    method: 'POST',
    url: '/api/merchant/webhooks',
    headers: shop.headers,
    payload: { url: 'http://127.0.0.1:9/other', events: ['payment.paid'] },
  });
  expect(other.statusCode).toBe(201);
  const otherEndpoint = other.json().endpoint.endpointId as string;
  const { failedRetentionDays } = WEBHOOK_RULES;
  const old = await delivery(shop, 'SUCCEEDED', failedRetentionDays + 1);
  const recent = await delivery(shop, 'SUCCEEDED', 1);
  const shared = await delivery(shop, 'SUCCEEDED', failedRetentionDays + 1);
  // The shared event also went to the other endpoint, whose delivery is still pending.
  await queueQuietly(
    h.database.db,
    new Date(h.clock.now().getTime() - (failedRetentionDays + 1) * DAY),
    shop.merchantId,
    otherEndpoint,
    shared.eventId,
  );
  const deleted = await h.app.inject({
    method: 'DELETE',
    url: `/api/merchant/webhooks/${shop.endpointId}`,
    headers: shop.headers,
  });
  expect(deleted.statusCode).toBeLessThan(300);
  const eventsLeft = async () =>
    (
      await h.database.db
        .select({ id: webhookEvents.id })
        .from(webhookEvents)
        .where(inArray(webhookEvents.id, [old.eventId, recent.eventId, shared.eventId]))
        .orderBy(webhookEvents.id)
    ).map((e) => e.id);
  // The endpoint's deliveries went with it; their events did not, and the delivery prune never meets them.
  expect(await stored([old.id, recent.id, shared.id])).toEqual([]);
  expect(await withTx(h.database.db, (tx) => pruneWebhookDeliveries(tx, h.clock.now()))).toBe(0);
  expect(await eventsLeft()).toEqual([old.eventId, recent.eventId, shared.eventId].sort());
  const result = await withTx(h.database.db, (tx) => pruneExpired(tx, '2026-11-22', h.clock.now()));
  expect(result.webhookEvents).toBeGreaterThanOrEqual(1);
  expect(await eventsLeft()).toEqual([recent.eventId, shared.eventId].sort());
  expect(await withTx(h.database.db, (tx) => pruneOrphanWebhookEvents(tx, h.clock.now()))).toBe(0);
  // Once past its own retention too, the recent one goes as well.
  const later = new Date(h.clock.now().getTime() + (failedRetentionDays + 2) * DAY);
  expect(await withTx(h.database.db, (tx) => pruneOrphanWebhookEvents(tx, later))).toBeGreaterThanOrEqual(1);
  expect(await eventsLeft()).toEqual([shared.eventId]);
});
