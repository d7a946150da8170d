import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How much of a refused body is read and dropped after the answer, and for how long at most. */
export interface UnreadBodyBounds {
  maxBytes: number;
  maxMs: number;
}

/**
 * A response sent before its request body was read to the end (no token, a wrong type, too large, a banned
 * uploader, a full disk mid-upload) must still reach the client. Closing the socket with the body unread
 * makes the kernel answer the client's next bytes with a reset, and a client still sending (Node's fetch,
 * any HTTP/1.1 client that reads the answer only after its body) sees EPIPE instead of the refusal. Leaving
 * the rest paused in the socket is no better: the kept-alive connection never goes idle and a graceful
 * shutdown waits on it.
 *
 * So after such a response the rest of the body is read and dropped, up to `maxBytes` and `maxMs`; the
 * connection then serves its next request as usual. Past either bound (a client sending far more than any
 * accepted upload, or too slowly) the socket is destroyed: a browser, which reads an early answer while it
 * uploads, has it by then. A shutdown cuts every drain short, so none pins the process.
 */
export function registerUnreadBodyDrain(app: FastifyInstance, bounds: UnreadBodyBounds): void {
  const draining = new Set<Socket>();
  // A callback hook (every response passes it; an async one costs a promise and a microtask each time).
  app.addHook('onResponse', (request, _reply, done) => {
    const body = request.raw;
    // An injected request (tests) has no socket to drain.
    const unread = !body.complete && !body.destroyed && body.socket instanceof Socket && !body.socket.destroyed;
    if (unread) drainRest(body, bounds, draining);
    done();
  });
  app.addHook('preClose', async () => {
    for (const socket of draining) socket.destroy();
  });
}

function drainRest(body: IncomingMessage, { maxBytes, maxMs }: UnreadBodyBounds, draining: Set<Socket>): void {
  const socket = body.socket;
  draining.add(socket);
  let read = 0;
  const finish = (cut: boolean) => {
    clearTimeout(deadline);
    draining.delete(socket);
    socket.removeListener('data', count);
    body.removeListener('end', ended);
    socket.removeListener('close', ended);
    if (cut) socket.destroy();
  };
  const ended = () => finish(false);
  // Counted as the bytes arrive on the socket: a body nobody read is dropped by Node's parser unseen.
  const count = (chunk: Buffer) => {
    read += chunk.length;
    if (read > maxBytes) finish(true);
  };
  const deadline = setTimeout(() => finish(true), maxMs);
  deadline.unref();
  socket.on('data', count);
  body.once('end', ended);
  socket.once('close', ended);
  // Whatever still reads the body (a multipart parser that gave up mid-part) is detached from it first.
  body.unpipe();
  body.removeAllListeners('data');
  body.resume();
}
