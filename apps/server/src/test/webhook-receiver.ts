import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import type { Db } from '../db/client';
import { withTx } from '../db/tx';
import { enqueueEvent } from '../modules/webhooks/enqueue';

export interface ReceivedHook {
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as signed. */
  body: string;
}

/**
 * A merchant's webhook endpoint on the loopback address (the app takes it only with WEBHOOKS_ALLOW_LOOPBACK).
 * `answer` decides each request's status from what arrived so far; it may return a promise the test settles
 * later, to hold a request open while something else happens.
 */
export async function webhookReceiver(
  answer: (hook: ReceivedHook, index: number) => number | Promise<number> = () => 200,
) {
  const received: ReceivedHook[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', async () => {
      const hook = { headers: request.headers, body };
      received.push(hook);
      for (const waiter of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      response.statusCode = await answer(hook, received.length - 1);
      response.end('ok');
    });
  });
  let connections = 0;
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    received,
    /** TCP connections ever opened to it, whether or not a request followed (TLS to plain HTTP does not). */
    connections: () => connections,
    /** The events received, parsed, in arrival order. */
    events: () =>
      received.map(
        (hook) =>
          JSON.parse(hook.body) as {
            id: string;
            type: string;
            data: { payment?: { requestId: string; status: string } };
          },
      ),
    /** Resolves once `count` requests have arrived (an event, not a poll). */
    arrived: (count: number) =>
      received.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve })),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}
export type WebhookReceiver = Awaited<ReturnType<typeof webhookReceiver>>;

/** Opens receivers as `webhookReceiver` does, each closed after the test that opened it. */
export function receiversClosedAfterEach(): typeof webhookReceiver {
  const open: WebhookReceiver[] = [];
  afterEach(async () => {
    for (const receiver of open.splice(0)) await receiver.close();
  });
  return async (answer) => {
    const receiver = await webhookReceiver(answer);
    open.push(receiver);
    return receiver;
  };
}

/** A test event to one endpoint, queued without waking any sender, so the test picks who sends it. */
export async function queueQuietly(db: Db, now: Date, merchantId: number, endpointId: string, id: string) {
  await withTx(db, (tx) =>
    enqueueEvent(tx, {
      id,
      merchantId,
      type: 'webhook.test',
      body: JSON.stringify({ id }),
      createdAt: now,
      orderKey: null,
      now,
      onlyEndpoint: endpointId,
    }),
  );
}
