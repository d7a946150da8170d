import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
// http_ece is what browsers' push stacks implement: the test endpoint decrypts exactly as a device would.
import ece from 'http_ece';

export interface ReceivedPush {
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** performance.now() when the request's body had arrived. */
  at: number;
}

/**
 * A local push service on the loopback address (the app takes it only with PUSH_ALLOW_LOOPBACK). The first
 * path segment says how it answers: `/ok/*` 201, `/gone/*` 410 like an expired subscription, `/fail/*` 500,
 * `/hole/*` never (a black-holed device: the request hangs until the sender gives up), `/flaky/*` 500 the
 * first time a path is posted to and 201 afterwards.
 */
export async function pushService() {
  const received: ReceivedPush[] = [];
  const waiters: Array<{ path: string; resolve: (push: ReceivedPush) => void }> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      const push = { path, headers: request.headers, body: Buffer.concat(chunks), at: performance.now() };
      const seenBefore = received.some((r) => r.path === path);
      received.push(push);
      for (const waiter of waiters.filter((w) => w.path === path)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(push);
      }
      const kind = path.split('/')[1];
      // A black hole keeps the connection open and never answers.
      if (kind === 'hole') return;
      response.statusCode = kind === 'gone' ? 410 : kind === 'fail' || (kind === 'flaky' && !seenBefore) ? 500 : 201;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    /** How many requests reached `path`. */
    count: (path: string) => received.filter((r) => r.path === path).length,
    /** The next request that reaches `path` (an event, not a poll). */
    next: (path: string) => new Promise<ReceivedPush>((resolve) => waiters.push({ path, resolve })),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}
export type PushService = Awaited<ReturnType<typeof pushService>>;

/** A browser's subscription: its own P-256 key pair and auth secret. */
export function pushDevice(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    body: { endpoint, keys: { p256dh: ecdh.getPublicKey('base64url'), auth: auth.toString('base64url') } },
  };
}

/** A pushed body as the device reads it: decrypted with its own key pair and auth secret (`aes128gcm`). */
export function readOnDevice(device: ReturnType<typeof pushDevice>, body: Buffer | undefined): string {
  return ece.decrypt(body, { version: 'aes128gcm', privateKey: device.ecdh, authSecret: device.auth }).toString('utf8');
}
