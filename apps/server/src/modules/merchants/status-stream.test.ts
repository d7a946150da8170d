import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { createRequest, finalPay, validatePin } from '../../test/payment-helpers';

let h: Harness;
let baseUrl: string;

beforeAll(async () => {
  h = await createHarness();
  baseUrl = await h.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => h.close());

/** Reads SSE `data:` payloads from a streaming fetch body. */
async function* events(body: ReadableStream<Uint8Array>) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  while (true) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block.split('\n').find((line) => line.startsWith('data: '));
      if (data) yield JSON.parse(data.slice(6)) as { requestId: string; status: string };
      end = buffer.indexOf('\n\n');
    }
  }
}

it('streams ACTIVE, then PAID the moment the customer pays, then closes', async () => {
  const merchant = await createMerchant(h.database.db);
  const { token } = await h.signUp();
  const request = await createRequest(h, merchant.headers, 3_300);
  const res = await fetch(`${baseUrl}/api/merchant/payment-requests/${request.requestId}/events`, {
    headers: merchant.headers,
  });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  if (!res.body) throw new Error('no body');
  const stream = events(res.body);
  expect((await stream.next()).value).toEqual({ requestId: request.requestId, status: 'ACTIVE' });
  await validatePin(h, token, request.pinCode);
  expect((await finalPay(h, token, request.requestId)).statusCode).toBe(200);
  expect((await stream.next()).value).toEqual({ requestId: request.requestId, status: 'PAID' });
  expect((await stream.next()).done).toBe(true);
});

it('needs the merchant key', async () => {
  const merchant = await createMerchant(h.database.db);
  const request = await createRequest(h, merchant.headers, 1_000);
  const res = await fetch(`${baseUrl}/api/merchant/payment-requests/${request.requestId}/events`);
  expect(res.status).toBe(401);
});
