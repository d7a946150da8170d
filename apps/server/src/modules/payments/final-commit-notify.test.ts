import { afterEach, expect, it } from 'vitest';
import { createHarness, type Harness, secondInstance } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { createRequest, pay } from '../../test/payment-helpers';

// A final's, a refund's and a cancel's transactions notify nothing (ADRs 0139, 0252): a notifying commit holds a
// cluster-wide lock through its disk flush, so they would commit one at a time. The request's new status still
// reaches every instance's live streams, announced by the outbox relay from the change's event.

let h: Harness;
afterEach(() => h.close());

/** A LISTEN connection on the channels a payment could announce itself on, and a sentinel to flush them. */
async function listener() {
  const client = await h.database.pool.connect();
  const heard: Array<{ channel: string; payload: string }> = [];
  const waiting = new Map<string, () => void>();
  client.on('notification', ({ channel, payload = '' }) => {
    heard.push({ channel, payload });
    waiting.get(payload)?.();
  });
  await client.query('listen payment_request_status');
  await client.query('listen domain_events_recorded');
  await client.query('listen sentinel');
  return {
    heard,
    /** Everything notified before this call has been heard once it resolves (notifications keep commit order). */
    async flush(mark: string) {
      const arrived = new Promise<void>((resolve) => waiting.set(mark, resolve));
      await h.database.pool.query('select pg_notify($1, $2)', ['sentinel', mark]);
      await arrived;
      return heard.filter((n) => n.channel !== 'sentinel');
    },
    async close() {
      await client.query('unlisten *');
      client.release();
    },
  };
}

/** What a second instance's relay announces once it drains the events this instance recorded. */
async function drainedElsewhere() {
  const next = await secondInstance(h, { DISPATCH_EVENTS: true });
  try {
    await next.relay.drain();
  } finally {
    await next.close();
  }
}

it('a final commits without notifying, and the relay announces its PAID request', async () => {
  // This instance pays but dispatches nothing, so whatever is heard before the drain came from the final.
  h = await createHarness({ config: { DISPATCH_EVENTS: false } });
  const merchant = await createMerchant(h.database.db);
  const customer = await h.signUp();
  const listening = await listener();
  try {
    const { request, res } = await pay(h, merchant.headers, customer.token, 4_000);
    expect(res.statusCode).toBe(200);
    expect(await listening.flush('after-final')).toEqual([]);

    await drainedElsewhere();
    expect(await listening.flush('after-drain')).toEqual([
      { channel: 'payment_request_status', payload: request.requestId },
    ]);
  } finally {
    await listening.close();
  }
});

it('a refund and a cancel commit without notifying, and the relay announces both requests', async () => {
  h = await createHarness({ config: { DISPATCH_EVENTS: false } });
  const merchant = await createMerchant(h.database.db);
  const customer = await h.signUp();
  const { request: paid } = await pay(h, merchant.headers, customer.token, 4_000);
  const open = await createRequest(h, merchant.headers, 2_000);
  await drainedElsewhere();
  const listening = await listener();
  try {
    const refunded = await h.app.inject({
      method: 'POST',
      url: `/api/merchant/payment-requests/${paid.requestId}/refund`,
      headers: merchant.headers,
    });
    expect(refunded.json().status).toBe('REFUNDED');
    const cancelled = await h.app.inject({
      method: 'POST',
      url: `/api/merchant/payment-requests/${open.requestId}/cancel`,
      headers: merchant.headers,
    });
    expect(cancelled.json().status).toBe('CANCELLED');
    expect(await listening.flush('after-refund-and-cancel')).toEqual([]);

    await drainedElsewhere();
    expect(await listening.flush('after-drain')).toEqual([
      { channel: 'payment_request_status', payload: paid.requestId },
      { channel: 'payment_request_status', payload: open.requestId },
    ]);
  } finally {
    await listening.close();
  }
});
