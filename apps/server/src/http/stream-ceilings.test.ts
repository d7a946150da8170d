import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../lib/config';
import { bearer, createHarness, type Harness } from '../test/harness';
import { createMerchant } from '../test/merchant-fixture';
import { createRequest, finalPay, pay, validatePin } from '../test/payment-helpers';
import { REPLACED } from './sse';

/**
 * Ceilings on live streams (docs/security.md, "stream flooding"): one owner's streams beyond the ceiling do not
 * pile up; the oldest is ended with the `reconnect` event a shutdown sends, the rest stay live.
 */
const { NOTICE_STREAMS_PER_CUSTOMER, STATUS_STREAMS_PER_REQUEST } = testConfig();
let h: Harness;
let address: string;
beforeAll(async () => {
  h = await createHarness();
  address = await h.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => h.close());

type SseEvent = { event: string; data: Record<string, unknown> };

/** One open stream, read event by event; `next` answers null once the server has ended it. */
async function openStream(path: string, headers: Record<string, string>) {
  const response = await fetch(`${address}${path}`, { headers });
  expect(response.status).toBe(200);
  const reader = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    async next(): Promise<SseEvent | null> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const field = (name: string) => block.match(new RegExp(`^${name}: (.*)$`, 'm'))?.[1];
          const data = field('data');
          // Pings are comments: no event.
          if (data !== undefined) return { event: field('event') ?? 'message', data: JSON.parse(data) };
          continue;
        }
        const { value, done } = await reader.read();
        if (done) return null;
        buffer += value;
      }
    },
    cancel: () => reader.cancel(),
  };
}

describe('notice streams per customer', () => {
  it(`keeps ${NOTICE_STREAMS_PER_CUSTOMER}: one more ends the oldest with reconnect, the newest and another customer's stay live`, async () => {
    const merchant = await createMerchant(h.database.db);
    const me = await h.signUp();
    const other = await h.signUp();
    const open = async (token: string) => {
      const stream = await openStream('/api/notifications/stream', bearer(token));
      expect((await stream.next())?.event).toBe('ready');
      return stream;
    };
    const mine = [];
    for (let i = 0; i < NOTICE_STREAMS_PER_CUSTOMER; i++) mine.push(await open(me.token));
    const theirs = [await open(other.token), await open(other.token)];

    const newest = await open(me.token);
    const [oldest, ...kept] = mine;
    expect(await oldest?.next()).toEqual({ event: 'reconnect', data: { reason: REPLACED } });
    expect(await oldest?.next()).toBeNull();

    // A notice of mine reaches every stream still open, the newest included; the other customer's are still live.
    await pay(h, merchant.headers, me.token, 1_100);
    for (const stream of [...kept, newest]) expect((await stream.next())?.event).toBe('notice');
    await pay(h, merchant.headers, other.token, 2_200);
    for (const stream of theirs) {
      expect(await stream.next()).toMatchObject({ event: 'notice', data: { notice: { kind: 'payment_completed' } } });
    }
    for (const stream of [...kept, newest, ...theirs]) await stream.cancel();
  }, 60_000);
});

describe('status streams per payment request', () => {
  it(`keeps ${STATUS_STREAMS_PER_REQUEST}: one more ends the oldest with reconnect and its status, another request's stays live`, async () => {
    const merchant = await createMerchant(h.database.db);
    const customer = await h.signUp();
    const request = await createRequest(h, merchant.headers, 3_000);
    const another = await createRequest(h, merchant.headers, 4_000);
    const open = async (requestId: string) => {
      const stream = await openStream(`/api/merchant/payment-requests/${requestId}/events`, merchant.headers);
      expect(await stream.next()).toEqual({ event: 'status', data: { requestId, status: 'ACTIVE' } });
      return stream;
    };
    const first = [];
    for (let i = 0; i < STATUS_STREAMS_PER_REQUEST; i++) first.push(await open(request.requestId));
    const neighbour = await open(another.requestId);

    const newest = await open(request.requestId);
    const [oldest, ...kept] = first;
    expect(await oldest?.next()).toEqual({
      event: 'reconnect',
      data: { requestId: request.requestId, status: 'ACTIVE', reason: REPLACED },
    });
    expect(await oldest?.next()).toBeNull();

    // The request is paid: every stream still open hears it, and the other request's stream is untouched.
    expect((await validatePin(h, customer.token, request.pinCode)).statusCode).toBe(200);
    expect((await finalPay(h, customer.token, request.requestId)).statusCode).toBe(200);
    for (const stream of [...kept, newest]) {
      expect(await stream.next()).toEqual({ event: 'status', data: { requestId: request.requestId, status: 'PAID' } });
    }
    const cancelled = await h.app.inject({
      method: 'POST',
      url: `/api/merchant/payment-requests/${another.requestId}/cancel`,
      headers: merchant.headers,
    });
    expect(cancelled.statusCode).toBe(200);
    expect(await neighbour.next()).toEqual({
      event: 'status',
      data: { requestId: another.requestId, status: 'CANCELLED' },
    });
  }, 60_000);
});
