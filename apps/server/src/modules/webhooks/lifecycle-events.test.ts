import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { merchants, paymentRequests, webhookDeliveries } from '../../db/schema';
import { rowsOf, withTx } from '../../db/tx';
import { REGISTRY } from '../../jobs/registry';
import { createHarness, type Harness } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { createRequest } from '../../test/payment-helpers';
import { insertPurchase } from '../../test/purchase-fixture';
import { receiversClosedAfterEach } from '../../test/webhook-receiver';
import { createSandboxBank } from '../bank/sandbox-bank';
import { expireDueRequests } from '../merchants/expiry';
import { closeSettlements } from '../settlements/close';
import { payDueSettlements } from '../settlements/payouts';

/*
 * The webhook events of a request's other ends and of a payout (docs/rules/webhooks.md#W3): a cancel and an
 * expiry become facts with their events in their own transactions, and a paid settlement reaches the
 * merchant as its API shows it. Real database, real loopback endpoint.
 */
let h: Harness;
const receiver = receiversClosedAfterEach();

beforeAll(async () => {
  h = await createHarness({ config: { WEBHOOKS_ALLOW_LOOPBACK: true } });
});
afterAll(() => h.close());

const db = () => h.database.db;

async function merchantWithHook(events: string[]) {
  const merchant = await createMerchant(db());
  const hook = await receiver();
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/merchant/webhooks',
    headers: merchant.headers,
    payload: { url: hook.url, events },
  });
  expect(res.statusCode).toBe(201);
  return { ...merchant, hook };
}

async function relayAndSend() {
  await h.app.relay.drain();
  await h.app.webhooks.sender.drain();
}

const eventsOfRequest = (requestId: string) =>
  rowsOf<{ type: string; at_ms: string }>(
    db(),
    sql`select type, (extract(epoch from occurred_at) * 1000)::bigint::text as at_ms from domain_events where payload->>'requestId' = ${requestId} order by id`,
  );

it('a cancel records payment.cancelled in its own transaction and the endpoint hears it once', async () => {
  const m = await merchantWithHook(['payment.cancelled', 'payment.expired']);
  const request = await createRequest(h, m.headers, 5_000);
  const cancel = () =>
    h.app.inject({
      method: 'POST',
      url: `/api/merchant/payment-requests/${request.requestId}/cancel`,
      headers: m.headers,
    });
  // Two cancels at once (a merchant's retry): one fact, one event.
  const [first, second] = await Promise.all([cancel(), cancel()]);
  expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
  expect(first.json().status).toBe('CANCELLED');
  expect((await eventsOfRequest(request.requestId)).map((e) => e.type)).toEqual(['payment.cancelled']);
  await relayAndSend();
  const events = m.hook.events();
  expect(events.map((e) => [e.type, e.data.payment?.requestId, e.data.payment?.status])).toEqual([
    ['payment.cancelled', request.requestId, 'CANCELLED'],
  ]);
  // Past its expiry a cancelled request is not expired too.
  h.clock.advance(10 * 60_000);
  await expireDueRequests(db(), h.clock.now());
  await relayAndSend();
  expect(m.hook.received).toHaveLength(1);
});

it('an expiry becomes a fact once, at its instant, even with two sweeps at once after a missed stretch', async () => {
  const m = await merchantWithHook(['payment.expired']);
  const request = await createRequest(h, m.headers, 7_000);
  const other = await createRequest(h, m.headers, 8_000);
  // Before its expiry nothing is closed.
  await expireDueRequests(db(), h.clock.now());
  expect(await eventsOfRequest(request.requestId)).toEqual([]);
  // The sweep missed an hour (a restart): two instances then run it at the same moment.
  h.clock.advance(3_600_000);
  const swept = await Promise.all([expireDueRequests(db(), h.clock.now()), expireDueRequests(db(), h.clock.now())]);
  expect(swept[0] + swept[1]).toBeGreaterThanOrEqual(2);
  for (const id of [request.requestId, other.requestId]) {
    const events = await eventsOfRequest(id);
    expect(events.map((e) => e.type)).toEqual(['payment.expired']);
    const [row] = await db().select().from(paymentRequests).where(eq(paymentRequests.id, id));
    expect(row?.status).toBe('EXPIRED');
    // Closed and told at its expiry instant, not at the late sweep.
    expect(row?.closedAt?.getTime()).toBe(row?.expiresAt.getTime());
    expect(Number(events[0]?.at_ms)).toBe(row?.expiresAt.getTime());
  }
  // The merchant's cancel of an expired request still answers that it expired, and records nothing more.
  const cancel = await h.app.inject({
    method: 'POST',
    url: `/api/merchant/payment-requests/${request.requestId}/cancel`,
    headers: m.headers,
  });
  expect(cancel.json().code).toBe('REQUEST_EXPIRED');
  await relayAndSend();
  const events = m.hook.events();
  expect(events.map((e) => e.type)).toEqual(['payment.expired', 'payment.expired']);
  expect(new Set(events.map((e) => e.data.payment?.requestId))).toEqual(new Set([request.requestId, other.requestId]));
  expect(events.every((e) => e.data.payment?.status === 'EXPIRED')).toBe(true);
  expect(JSON.parse(m.hook.received[0]?.body ?? '{}').createdAt).toBe(request.expiresAt);
});

it('a request another transaction holds at its expiry (a final in progress) is skipped, never expired behind it', async () => {
  const m = await createMerchant(db());
  const request = await createRequest(h, m.headers, 2_000);
  h.clock.advance(5 * 60_000);
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked!: () => void;
  const holding = new Promise<void>((resolve) => {
    locked = resolve;
  });
  // Holds the row as a final does, then ends it PAID (as a final that had checked its expiry before it).
  const final = withTx(db(), async (tx) => {
    await tx.select().from(paymentRequests).where(eq(paymentRequests.id, request.requestId)).for('update');
    locked();
    await released;
    await tx.update(paymentRequests).set({ status: 'PAID' }).where(eq(paymentRequests.id, request.requestId));
  });
  await holding;
  // The sweep does not wait on the held row: it returns at once, having closed nothing of it.
  await expireDueRequests(db(), h.clock.now());
  expect(await eventsOfRequest(request.requestId)).toEqual([]);
  release();
  await final;
  // Once paid it is never expired by a later sweep.
  await expireDueRequests(db(), h.clock.now());
  const [row] = await db().select().from(paymentRequests).where(eq(paymentRequests.id, request.requestId));
  expect(row?.status).toBe('PAID');
  expect(await eventsOfRequest(request.requestId)).toEqual([]);
});

it('the once-per-cluster expiry row runs the sweep every minute', async () => {
  const job = REGISTRY.find((row) => row.name === 'payment-expiry');
  expect(job).toMatchObject({ scope: 'cluster', schedule: { cron: '* * * * *' } });
  const m = await createMerchant(db());
  const request = await createRequest(h, m.headers, 1_000);
  h.clock.advance(5 * 60_000);
  if (job?.scope !== 'cluster') throw new Error('payment-expiry is not a cluster job');
  const notThisJob = () => Promise.reject(new Error('not the expiry job'));
  await job.run(
    {
      db: db(),
      clock: h.clock,
      autopayDebits: notThisJob,
      payouts: notThisJob,
      pushes: notThisJob,
      webhooks: notThisJob,
      mediaSweep: notThisJob,
    },
    h.clock.now(),
  );
  expect((await eventsOfRequest(request.requestId)).map((e) => e.type)).toEqual(['payment.expired']);
});

it('a paid settlement reaches the endpoint as the merchant API shows it, once', async () => {
  const m = await merchantWithHook(['settlement.paid']);
  const { customerId } = await h.signUp();
  const day = '2026-12-01';
  h.clock.set(new Date(`${day}T12:00:00+09:00`));
  await insertPurchase(db(), { customerId, merchantId: m.merchantId, totalPrice: 40_000, at: h.clock.now() });
  await withTx(db(), (tx) => closeSettlements(tx, '2026-12-02', h.clock.now()));
  await db()
    .update(merchants)
    .set({ settlementBank: '신한', settlementAccount: '5500000012345', settlementAccountVerifiedAt: h.clock.now() })
    .where(eq(merchants.id, m.merchantId));
  h.clock.set(new Date('2026-12-02T09:00:00+09:00'));
  await payDueSettlements(db(), createSandboxBank(db(), h.clock), h.clock);
  await relayAndSend();
  // The relay's batch again (a crash before its commit) adds nothing.
  await db().execute(sql`update domain_events set dispatched_at = null where type = 'settlement.paid'`);
  await relayAndSend();
  const [event, ...rest] = m.hook.events() as Array<{ type: string; data: { settlement?: { settlementId: number } } }>;
  expect(rest).toEqual([]);
  expect(event?.type).toBe('settlement.paid');
  const settlementId = event?.data.settlement?.settlementId;
  const shown = await h.app.inject({ method: 'GET', url: '/api/merchant/settlements', headers: m.headers });
  expect(shown.json().items).toEqual([event?.data.settlement]);
  expect(event?.data.settlement).toMatchObject({ status: 'PAID', sales: 40_000, fees: 1_000, payout: 39_000 });
  const deliveries = await db()
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.merchantId, m.merchantId), eq(webhookDeliveries.status, 'SUCCEEDED')));
  expect(deliveries).toHaveLength(1);
  expect(settlementId).toBeGreaterThan(0);
});
