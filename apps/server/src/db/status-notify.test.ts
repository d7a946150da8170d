import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../test/harness';
import { createMerchant } from '../test/merchant-fixture';
import { createRequest } from '../test/payment-helpers';

// `payment_requests_status_notify` (migration 0014): one statement-level trigger sends one notification per
// request whose status changed, however many rows an UPDATE touches, and none for other column changes.

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

it('notifies each request whose status an UPDATE changed, and only those', async () => {
  const merchant = await createMerchant(h.database.db, '알림상점');
  const [a, b, untouched, sentinel] = [
    await createRequest(h, merchant.headers, 1_000),
    await createRequest(h, merchant.headers, 1_000),
    await createRequest(h, merchant.headers, 1_000),
    await createRequest(h, merchant.headers, 1_000),
  ];
  const listener = await h.database.pool.connect();
  const heard: string[] = [];
  let sentinelHeard: () => void = () => undefined;
  const sentinelArrived = new Promise<void>((resolve) => {
    sentinelHeard = resolve;
  });
  listener.on('notification', (message) => {
    if (message.channel !== 'payment_request_status') return;
    heard.push(message.payload ?? '');
    if (message.payload === sentinel.requestId) sentinelHeard();
  });
  try {
    await listener.query('listen payment_request_status');
    // One statement: two status changes and a change of another column only.
    await h.database.pool.query(
      `update payment_requests set status = case when id = $3 then status else 'CANCELLED' end,
         request_name = request_name || '*'
       where id in ($1, $2, $3)`,
      [a.requestId, b.requestId, untouched.requestId],
    );
    // Notifications arrive in commit order: once the later sentinel is heard, everything before it was.
    await h.database.pool.query(`update payment_requests set status = 'CANCELLED' where id = $1`, [sentinel.requestId]);
    await sentinelArrived;
    expect(heard.sort()).toEqual([a.requestId, b.requestId, sentinel.requestId].sort());
  } finally {
    await listener.query('unlisten *');
    listener.release();
  }
});
