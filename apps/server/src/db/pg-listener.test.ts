import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../test/harness';
import { PgListener } from './pg-listener';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

it('a subscription cut short by closing (shutdown) resolves instead of failing with the connection', async () => {
  const notifications = new PgListener(h.database.url);
  await notifications.subscribe('first_channel', () => undefined);
  // Close while the next LISTEN is on the wire, as an app closed right after it was built does.
  const client = (notifications as unknown as { client: pg.Client }).client;
  const query = client.query.bind(client) as (text: string) => Promise<unknown>;
  (client as unknown as { query: (text: string) => Promise<unknown> }).query = (text: string) => {
    const sent = query(text);
    void notifications.close();
    return sent;
  };
  await expect(notifications.subscribe('second_channel', () => undefined)).resolves.toBeTypeOf('function');
});

it('a subscription whose connection is cut while opening, after closing, resolves instead of failing', async () => {
  // A database that accepts the connection and cuts it on our word, as a shutdown's or a dropped database's
  // terminate does while a listener is still opening.
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as { port: number };
    const notifications = new PgListener(`postgres://nobody:nothing@127.0.0.1:${port}/none`);
    const subscribed = notifications.subscribe('cut_channel', () => undefined);
    if (sockets.length === 0) await once(server, 'connection');
    await notifications.close();
    for (const socket of sockets) socket.destroy();
    await expect(subscribed).resolves.toBeTypeOf('function');
  } finally {
    server.close();
  }
});

it('a subscription delivers what is notified after it resolved', async () => {
  const notifications = new PgListener(h.database.url);
  const heard: string[] = [];
  let arrived: () => void = () => undefined;
  const delivered = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  await notifications.subscribe('test_channel', (payload) => {
    heard.push(payload);
    arrived();
  });
  await h.database.pool.query(`select pg_notify('test_channel', 'hello')`);
  await delivered;
  expect(heard).toEqual(['hello']);
  await notifications.close();
});

it('subscribers starting together put one statement at a time on the connection', async () => {
  const notifications = new PgListener(h.database.url);
  await notifications.subscribe('together_0', () => undefined);
  const client = (notifications as unknown as { client: pg.Client }).client;
  const query = client.query.bind(client) as (text: string) => Promise<unknown>;
  let inFlight = 0;
  let most = 0;
  (client as unknown as { query: (text: string) => Promise<unknown> }).query = (text: string) => {
    inFlight += 1;
    most = Math.max(most, inFlight);
    return query(text).finally(() => {
      inFlight -= 1;
    });
  };
  await Promise.all([1, 2, 3, 4].map((i) => notifications.subscribe(`together_${i}`, () => undefined)));
  expect(most).toBe(1);
  // Every channel is listened to: a notification on the last one arrives.
  const heard = new Promise<string>((resolve) => {
    void notifications.subscribe('together_4', resolve);
  });
  await h.database.pool.query(`select pg_notify('together_4', 'last')`);
  expect(await heard).toBe('last');
  await notifications.close();
});
