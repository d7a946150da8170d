import type { DomainEvent } from '@ohgood/contract/domain-events';
import type { Notice } from '@ohgood/contract/notifications';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { domainEvents, notifications } from '../../db/schema';
import { withTx } from '../../db/tx';
import { recordEvent } from '../../events/record-event';
import { createRelay } from '../../events/relay';
import { bearer, createHarness, type Harness, secondInstance } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { noticeKinds, noticesAfterDispatch } from '../../test/notice-helpers';
import { pay } from '../../test/payment-helpers';
import { noticesConsumer } from './notices-consumer';

let h: Harness;
afterEach(() => h.close());

describe('dispatch after commit (docs/rules/notifications.md#N1)', () => {
  it('a crash between the commit and the dispatch still delivers: the next instance finds the undispatched events', async () => {
    // This instance commits facts and dies before dispatching anything (its relay never runs).
    h = await createHarness({ config: { DISPATCH_EVENTS: false } });
    const customer = await h.signUp();
    const merchant = await createMerchant(h.database.db);
    expect((await pay(h, merchant.headers, customer.token, 12_000)).res.statusCode).toBe(200);
    const undispatched = await h.database.db.select().from(domainEvents);
    expect(undispatched.filter((e) => e.dispatchedAt === null).length).toBeGreaterThan(0);
    expect(await h.database.db.select().from(notifications)).toHaveLength(0);

    const next = await secondInstance(h, { DISPATCH_EVENTS: true });
    try {
      await next.relay.drain();
    } finally {
      await next.close();
    }
    const rows = await h.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.customerId, customer.customerId));
    expect(rows.map((r) => r.kind)).toEqual(['payment_completed']);
    expect((await h.database.db.select().from(domainEvents)).every((e) => e.dispatchedAt !== null)).toBe(true);
  });

  it('a rolled-back payment sends nothing', async () => {
    h = await createHarness();
    const customer = await h.signUp();
    const merchant = await createMerchant(h.database.db);
    // Over the limit: the final refuses, its transaction leaves nothing behind.
    expect((await pay(h, merchant.headers, customer.token, 9_000_000)).res.statusCode).toBe(422);
    // A fact whose transaction fails after recording its event.
    await expect(
      withTx(h.database.db, async (tx) => {
        await recordEvent(tx, { type: 'account.suspension_lifted', customerId: customer.customerId }, h.clock.now());
        throw new Error('the fact failed after its event');
      }),
    ).rejects.toThrow('the fact failed');
    expect(await noticeKinds(h, customer.customerId)).toEqual([]);
    expect(
      await h.database.db.select().from(domainEvents).where(eq(domainEvents.customerId, customer.customerId)),
    ).toEqual([]);
  });

  it('wakes the push sender only after a batch that wrote a notice to push now', async () => {
    h = await createHarness({ config: { DISPATCH_EVENTS: false } });
    const customer = await h.signUp();
    let pushWakes = 0;
    const relay = createRelay(h.database.db, h.clock, {
      consumers: [noticesConsumer(() => pushWakes++)],
      log: h.app.log,
    });
    const record = (event: DomainEvent) => withTx(h.database.db, (tx) => recordEvent(tx, event, h.clock.now()));
    const base = { customerId: customer.customerId, refType: 'short_view', refId: '1', balance: 10 };

    // A watch claim's points write no notice: nothing for the push sender to look at.
    await record({ type: 'points.posted', amount: 10, reason: 'WATCH_REWARD', ...base });
    expect(await relay.drain()).toBe(1);
    expect(pushWakes).toBe(0);

    // A bill's notice is pushed at once (billing ignores the quiet hours).
    const bill = { month: '2026-11', amount: 40_000, lines: 1, dueDate: '2026-12-15' } as const;
    await record({ type: 'statement.issued', customerId: customer.customerId, ...bill });
    expect(await relay.drain()).toBe(1);
    expect(pushWakes).toBe(1);
    expect(await noticeKinds(h, customer.customerId)).toEqual(['statement_issued']);
  });
});

describe('the notification center API (docs/rules/notifications.md#N7)', () => {
  it('lists my notices newest first, marks only my own read, and reads all', async () => {
    h = await createHarness();
    const me = await h.signUp();
    const other = await h.signUp();
    const merchant = await createMerchant(h.database.db);
    await pay(h, merchant.headers, me.token, 1_000);
    await pay(h, merchant.headers, me.token, 2_000);
    await pay(h, merchant.headers, other.token, 3_000);
    const mine = await noticesAfterDispatch(h, me.customerId);
    const theirs = await noticesAfterDispatch(h, other.customerId);
    const list = await h.app.inject({ method: 'GET', url: '/api/notifications', headers: bearer(me.token) });
    const page = list.json().data as { items: Notice[]; unread: number; nextCursor: number | null };
    expect(page.items.map((n) => n.id)).toEqual([mine[1]?.id, mine[0]?.id]);
    expect(page).toMatchObject({ unread: 2, nextCursor: null });
    const foreign = await h.app.inject({
      method: 'POST',
      url: `/api/notifications/${theirs[0]?.id}/read`,
      headers: bearer(me.token),
    });
    expect(foreign.statusCode).toBe(404);
    const read = await h.app.inject({
      method: 'POST',
      url: `/api/notifications/${mine[0]?.id}/read`,
      headers: bearer(me.token),
    });
    expect(read.json().data).toEqual({ unread: 1 });
    await h.app.inject({ method: 'POST', url: '/api/notifications/read-all', headers: bearer(me.token) });
    const after = await h.app.inject({
      method: 'GET',
      url: '/api/notifications/unread-count',
      headers: bearer(other.token),
    });
    expect(after.json().data).toEqual({ unread: 1 });
  });
});

/** Reads Server-Sent Events from a fetch body until `count` events of `type` arrived. */
async function readEvents(response: Response, type: string, count: number) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const events: Array<{ id?: string; data: unknown }> = [];
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const field = (name: string) => block.match(new RegExp(`^${name}: (.*)$`, 'm'))?.[1];
      if (field('event') === type) events.push({ id: field('id'), data: JSON.parse(field('data') ?? 'null') });
    }
  }
  await reader.cancel();
  return events;
}

describe('live notices (docs/rules/notifications.md#N7)', () => {
  it('an open stream gets a payment’s notice from another instance at once, and resumes after Last-Event-ID', async () => {
    h = await createHarness();
    const customer = await h.signUp();
    const merchant = await createMerchant(h.database.db);
    const address = await h.app.listen({ port: 0, host: '127.0.0.1' });
    const open = (headers: Record<string, string> = {}) =>
      fetch(`${address}/api/notifications/stream`, { headers: { ...bearer(customer.token), ...headers } });

    const stream = await open();
    const ready = readEvents(stream, 'ready', 1);
    expect((await ready)[0]?.data).toEqual({ unread: 0 });
    const live = await open();
    const first = readEvents(live, 'notice', 1);
    // The payment lands on another instance, which also dispatches it: the notice reaches this one's stream.
    const other = await secondInstance(h);
    try {
      const request = await other.inject({
        method: 'POST',
        url: '/api/merchant/payment-requests',
        headers: merchant.headers,
        payload: { orderId: 'live-1', requestName: '라떼', totalPrice: 4_500 },
      });
      const { pinCode, requestId } = request.json();
      await other.inject({
        method: 'POST',
        url: '/api/payment/validate',
        headers: bearer(customer.token),
        payload: { codeType: 'pincode', value: pinCode },
      });
      await other.inject({
        method: 'POST',
        url: `/api/payment/final?point=0&requestId=${requestId}`,
        headers: bearer(customer.token),
      });
      const [event] = await first;
      expect(event?.data).toMatchObject({ unread: 1, notice: { kind: 'payment_completed', read: false } });
      expect(event?.data).toMatchObject({ notice: { body: expect.stringContaining('라떼 4,500원') } });

      // A tab that was away resumes from the last id it saw and gets exactly what it missed.
      await pay(h, merchant.headers, customer.token, 1_200);
      const resumed = await open({ 'last-event-id': String(event?.id) });
      const missed = await readEvents(resumed, 'notice', 1);
      expect(missed[0]?.data).toMatchObject({ notice: { body: expect.stringContaining('1,200원') } });
      expect(Number(missed[0]?.id)).toBeGreaterThan(Number(event?.id));
    } finally {
      await other.close();
    }
  });
});
