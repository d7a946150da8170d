import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isDependencyOutage } from '../lib/unavailable';
import { openTestDatabase } from '../test/test-database';
import type { Database } from './client';
import { PgListener } from './pg-listener';

/*
 * What a database restart or failover does to each connection the app holds, done for real: the server
 * ends a backend (`pg_terminate_backend`, the same 57P01 a `pg_ctl restart -m fast` sends to every one).
 * Vitest fails a file on any uncaught error, so these also prove the process would not have crashed.
 */
let database: Database;
let admin: pg.Client;
beforeAll(async () => {
  database = await openTestDatabase();
  admin = new pg.Client({ connectionString: database.url });
  admin.on('error', () => undefined);
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await database?.close();
});

const terminate = (pid: number) => admin.query('select pg_terminate_backend($1)', [pid]);

/** Resolves once `client` has emitted `error` (the event that used to crash the process, unheard). */
const errored = (client: pg.ClientBase) => new Promise<void>((resolve) => client.once('error', () => resolve()));

it('a checked-out connection killed mid-transaction fails only that transaction; the pool serves on', async () => {
  const client = await database.pool.connect();
  const pid = (client as unknown as { processID: number }).processID;
  // The pool only listens on idle clients; a checked-out one needs a listener of its own, or its `error`
  // is uncaught and ends the process.
  expect(client.listenerCount('error')).toBeGreaterThan(0);
  await client.query('begin');
  await client.query('select 1');
  // Idle in transaction, as a transaction waiting on the app between two statements is.
  const heard = errored(client);
  await terminate(pid);
  await heard;
  const failure = await client.query('select 1').catch((error: unknown) => error);
  expect(isDependencyOutage(failure)).toBe(true);
  client.release(true);
  expect((await database.pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
});

it('idle pooled connections killed together (a restart) are dropped; the next queries reconnect', async () => {
  const clients = await Promise.all([database.pool.connect(), database.pool.connect(), database.pool.connect()]);
  const pids = clients.map((client) => (client as unknown as { processID: number }).processID);
  for (const client of clients) client.release();
  await admin.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [pids]);
  // Each idle one either was dropped already or fails its next statement as an outage, never as a crash.
  const results = await Promise.allSettled(pids.map(() => database.pool.query('select 1')));
  for (const result of results) {
    if (result.status === 'rejected') expect(isDependencyOutage(result.reason)).toBe(true);
  }
  await expect.poll(async () => (await database.pool.query('select 1 as one')).rows[0].one).toBe(1);
});

it('the LISTEN connection, killed, reconnects, listens again and tells its listeners to read once', async () => {
  const listener = new PgListener(database.url);
  const heard: string[] = [];
  await listener.subscribe('outage_channel', (payload) => heard.push(payload));
  const pid = (listener as unknown as { client: { processID: number } }).client.processID;
  await terminate(pid);
  // '*' after the reconnect: anything may have changed during the gap.
  await expect.poll(() => heard.includes('*'), { timeout: 15_000 }).toBe(true);
  expect(listener.reconnects).toBe(1);
  // LISTENing again: a change after the reconnect is heard.
  await expect
    .poll(
      async () => {
        await database.pool.query(`select pg_notify('outage_channel', 'after')`);
        return heard.includes('after');
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  await listener.close();
});
