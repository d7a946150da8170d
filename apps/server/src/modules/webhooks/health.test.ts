import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, withTx } from '../../db/tx';
import { countingDb } from '../../test/counting-db';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { signedInMerchantUser } from '../../test/merchant-user-fixture';
import { signedInOperator } from '../../test/staff-fixture';
import { queueQuietly, receiversClosedAfterEach } from '../../test/webhook-receiver';
import { healthStatement, maskedEndpointUrl, merchantWebhookHealth } from './health';

/*
 * docs/rules/webhooks.md#W10: the console's webhook health of a merchant, on the real database with real
 * loopback endpoints and the real sender: one delivered, one failing, one pending.
 */
let h: Harness;
const receiver = receiversClosedAfterEach();

beforeAll(async () => {
  h = await createHarness({ config: { WEBHOOKS_ALLOW_LOOPBACK: true } });
});
afterAll(() => h.close());

const db = () => h.database.db;
let sequence = 0;

async function endpointOf(merchant: { headers: Record<string, string> }, status: number) {
  const hook = await receiver(() => status);
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/merchant/webhooks',
    headers: merchant.headers,
    payload: { url: `${hook.url}?token=shop-secret`, events: ['payment.paid', 'payment.refunded'] },
  });
  expect(res.statusCode).toBe(201);
  // Endpoints list in the order they were registered.
  h.clock.advance(1_000);
  return { endpointId: res.json().endpoint.endpointId as string, hook };
}

function queue(merchantId: number, endpointId: string) {
  sequence += 1;
  return queueQuietly(db(), h.clock.now(), merchantId, endpointId, `evt_health_${sequence}_${Date.now()}`);
}

function health(merchantId: number, auth: Record<string, string>) {
  return h.app.inject({ method: 'GET', url: `/api/ops/merchants/${merchantId}/webhooks`, headers: auth });
}

describe('webhook health in the console (W10)', () => {
  it('counts a delivered, a failing and a pending delivery per endpoint, and only this merchant’s', async () => {
    const shop = await createMerchant(db(), '웹훅상점');
    const other = await createMerchant(db(), '다른상점');
    const good = await endpointOf(shop, 200);
    const broken = await endpointOf(shop, 500);
    const elsewhere = await endpointOf(other, 503);
    await queue(shop.merchantId, good.endpointId);
    await queue(shop.merchantId, broken.endpointId);
    await queue(other.merchantId, elsewhere.endpointId);
    await h.app.webhooks.sender.drain();
    expect(good.hook.received).toHaveLength(1);
    expect(broken.hook.received).toHaveLength(1);
    const triedAt = h.clock.now();
    // One more to the good endpoint, queued and not sent yet; then 90 seconds pass.
    await queue(shop.merchantId, good.endpointId);
    h.clock.advance(90_000);

    const risk = await signedInOperator(h, 'RISK');
    const res = await health(shop.merchantId, risk.auth);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.merchantId).toBe(shop.merchantId);
    expect(body.endpoints.map((e: { endpointId: string }) => e.endpointId)).toEqual([
      good.endpointId,
      broken.endpointId,
    ]);
    const [first, second] = body.endpoints;
    const at = `${new Date(triedAt.getTime() + 9 * 3_600_000).toISOString().slice(0, 19)}+09:00`;
    expect(first).toMatchObject({
      url: maskedEndpointUrl(good.hook.url),
      events: ['payment.paid', 'payment.refunded'],
      lastDelivery: { eventType: 'webhook.test', status: 'SUCCEEDED', responseCode: 200, at },
      pending: 1,
      failing: 0,
      oldestPendingSeconds: 90,
      tried24h: 1,
      succeeded24h: 1,
      failed24h: 0,
    });
    expect(second).toMatchObject({
      lastDelivery: { status: 'PENDING', responseCode: 500, at },
      pending: 1,
      failing: 1,
      oldestPendingSeconds: 90,
      tried24h: 1,
      succeeded24h: 0,
      failed24h: 0,
    });
    // The merchant's token never reaches the console: scheme and host only.
    expect(JSON.stringify(body)).not.toContain('shop-secret');
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/…$/);

    // The other merchant sees its own endpoint only, and the day's window moves on.
    const theirs = (await health(other.merchantId, risk.auth)).json();
    expect(theirs.endpoints.map((e: { endpointId: string }) => e.endpointId)).toEqual([elsewhere.endpointId]);
    h.clock.advance(25 * 3_600_000);
    const admin = await signedInOperator(h, 'ADMIN');
    const later = (await health(shop.merchantId, admin.auth)).json().endpoints[0];
    expect(later).toMatchObject({ tried24h: 0, succeeded24h: 0, pending: 1, lastDelivery: { status: 'SUCCEEDED' } });
    expect(later.oldestPendingSeconds).toBe(90 + 25 * 3_600);
  });

  it('shows an endpoint never tried, and no endpoints, as what they are', async () => {
    const shop = await createMerchant(db(), '새상점');
    const risk = await signedInOperator(h, 'RISK');
    expect((await health(shop.merchantId, risk.auth)).json().endpoints).toEqual([]);
    await endpointOf(shop, 200);
    const [endpoint] = (await health(shop.merchantId, risk.auth)).json().endpoints;
    expect(endpoint).toMatchObject({ lastDelivery: null, pending: 0, failing: 0, oldestPendingSeconds: null });
    expect((await health(999_999, risk.auth)).json().code).toBe('MERCHANT_NOT_FOUND');
  });

  it('refuses support, customers, a merchant’s key and a merchant user’s session', async () => {
    const shop = await createMerchant(db(), '권한상점');
    expect((await health(shop.merchantId, (await signedInOperator(h, 'SUPPORT')).auth)).statusCode).toBe(403);
    expect((await health(shop.merchantId, (await signedInOperator(h, 'MODERATOR')).auth)).statusCode).toBe(403);
    expect((await health(shop.merchantId, bearer((await h.signUp()).token))).statusCode).toBe(401);
    expect((await health(shop.merchantId, shop.headers)).statusCode).toBe(401);
    expect((await health(shop.merchantId, (await signedInMerchantUser(h, shop.merchantId)).auth)).statusCode).toBe(401);
  });

  it('reads every endpoint’s figures in one statement, through the indexes', async () => {
    const shop = await createMerchant(db(), '많은상점');
    const { db: counted, counter } = countingDb(db());
    await endpointOf(shop, 200);
    await merchantWebhookHealth(counted, shop.merchantId, h.clock.now());
    const withOne = counter.statements;
    for (let i = 0; i < 4; i += 1) await endpointOf(shop, 200);
    counter.statements = 0;
    const read = await merchantWebhookHealth(counted, shop.merchantId, h.clock.now());
    expect(read.endpoints).toHaveLength(5);
    expect(counter.statements).toBe(withOne);

    // With sequential scans priced out, the plan reads deliveries only through their indexes.
    const plan = await withTx(db(), async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const rows = await rowsOf<{ 'QUERY PLAN': string }>(
        tx,
        sql`explain ${healthStatement(shop.merchantId, h.clock.now())}`,
      );
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('webhook_deliveries_endpoint_attempt_idx');
    expect(plan).toContain('webhook_deliveries_order_idx');
    expect(plan).not.toMatch(/Seq Scan on webhook_deliveries/);
  });
});
