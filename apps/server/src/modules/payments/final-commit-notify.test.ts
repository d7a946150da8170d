import { afterEach, expect, it } from 'vitest';
import { createHarness, type Harness, secondInstance } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { pay } from '../../test/payment-helpers';

// A final's transaction notifies nothing (ADR 0139): a notifying commit holds a cluster-wide lock through its
// disk flush, so finals would commit one at a time. Its request's PAID still reaches every instance's live
// streams, announced by the outbox relay from the payment's event.

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

    const next = await secondInstance(h, { DISPATCH_EVENTS: true });
    try {
      await next.relay.drain();
    } finally {
      await next.close();
    }
    expect(await listening.flush('after-drain')).toEqual([
      { channel: 'payment_request_status', payload: request.requestId },
    ]);
  } finally {
    await listening.close();
  }
});
