import { connect, type Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { registerUnreadBodyDrain } from './unread-body';

/*
 * The drain's bounds on raw sockets: after an early refusal the rest of the body is read and dropped, the
 * connection then serves its next request; a body past the byte bound, or one sent too slowly, gets its
 * socket closed, so no refused client pins a connection.
 */
let app: FastifyInstance;
let port: number;

async function start(maxMs: number): Promise<void> {
  app = Fastify();
  registerUnreadBodyDrain(app, { maxBytes: 64 * 1024, maxMs });
  // Refuses before reading a byte of the body, as the auth guard does.
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  app.post('/refuse', async (_request, reply) => reply.status(401).send({ success: false }));
  app.get('/next', async () => ({ next: true }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as { port: number }).port;
}

beforeEach(() => start(500));
afterEach(() => app.close());

/** A socket with everything it received so far, and a promise of its close. */
function open(): { socket: Socket; received: () => string; closed: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('latin1');
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  return { socket, received: () => text, closed };
}

function until(check: () => boolean, socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    const look = () => {
      if (check()) {
        socket.off('data', look);
        resolve();
      }
    };
    socket.on('data', look);
    socket.once('close', () => (check() ? resolve() : reject(new Error('closed before the awaited bytes'))));
    look();
  });
}

const head = (length: number) =>
  `POST /refuse HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${length}\r\n\r\n`;

it('reads the rest of a refused body after the answer and serves the next request on the same socket', async () => {
  const client = open();
  client.socket.write(head(32 * 1024));
  await until(() => client.received().includes('\r\n\r\n{"success":false}'), client.socket);
  expect(client.received()).toMatch(/^HTTP\/1\.1 401/);
  client.socket.write(Buffer.alloc(32 * 1024, 1));
  client.socket.write('GET /next HTTP/1.1\r\nHost: x\r\n\r\n');
  await until(() => client.received().includes('{"next":true}'), client.socket);
  client.socket.destroy();
});

it('closes the socket of a refused body that goes past the byte bound', async () => {
  await app.close();
  await start(60_000);
  const client = open();
  client.socket.write(head(10 * 1024 * 1024));
  await until(() => client.received().includes('{"success":false}'), client.socket);
  // Written in pieces, so the server reads past its bound while the socket is still open.
  for (let sent = 0; sent < 256 * 1024 && !client.socket.destroyed; sent += 16 * 1024) {
    client.socket.write(Buffer.alloc(16 * 1024, 2));
  }
  await client.closed;
  expect(client.received()).toMatch(/^HTTP\/1\.1 401/);
});

it('closes the socket of a refused body that stops arriving, once the time bound passes', async () => {
  const client = open();
  const started = performance.now();
  client.socket.write(head(1024));
  client.socket.write(Buffer.alloc(10, 3));
  await client.closed;
  expect(client.received()).toMatch(/^HTTP\/1\.1 401/);
  expect(performance.now() - started).toBeGreaterThanOrEqual(450);
});

it('lets a shutdown close a socket still draining, instead of waiting for its bound', async () => {
  await app.close();
  await start(60_000);
  const client = open();
  client.socket.write(head(1024));
  await until(() => client.received().includes('{"success":false}'), client.socket);
  const started = performance.now();
  await app.close();
  await client.closed;
  expect(performance.now() - started).toBeLessThan(5_000);
});
