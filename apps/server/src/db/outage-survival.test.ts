import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isDependencyOutage } from '../lib/unavailable';
import { startDatabaseProxy, type TcpProxy } from '../test/tcp-proxy';
import { openTestDatabase, type TestDatabase } from '../test/test-database';
import { connectDatabase, type Database } from './client';
import { PgListener } from './pg-listener';

/*
 * What a database restart or failover does to each connection the app holds, done for real: the server
 * ends a backend (`pg_terminate_backend`, the same 57P01 a `pg_ctl restart -m fast` sends to every one).
 * Vitest fails a file on any uncaught error, so these also prove the process would not have crashed.
 */
let database: TestDatabase;
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

/** `pool.connect(callback)`: the client and the release function the pool hands with it. */
const checkOut = (pool: pg.Pool) =>
  new Promise<{ client: pg.PoolClient; release: (error?: Error | boolean) => void }>((resolve, reject) =>
    pool.connect((error, client, release) => (client ? resolve({ client, release }) : reject(error))),
  );

/** A pool of its own that reaches the database through a proxy `use` can cut; both closed after `use`. */
async function throughProxy(use: (own: Database, proxy: TcpProxy) => Promise<void>): Promise<void> {
  const { proxy, via } = await startDatabaseProxy(database.url);
  const own = await connectDatabase(via(database.url), { kind: database.kind, migrate: false });
  try {
    await use(own, proxy);
  } finally {
    await own.close();
    await proxy.close();
  }
}

it('a connection cut unseen fails its first statement and leaves the pool; its holder’s own release then does nothing', () =>
  throughProxy(async (own, proxy) => {
    const idle = await checkOut(own.pool);
    idle.release();
    proxy.severQuietly();
    // The holder keeps the release it was handed, as graphile-worker does for its LISTEN connection.
    const { client, release } = await checkOut(own.pool);
    const failure = await client.query('LISTEN "outage_channel"').catch((error: unknown) => error);
    expect(isDependencyOutage(failure)).toBe(true);
    // Released already (on the failed first statement) and dropped: the holder's release is ignored.
    await expect.poll(() => own.pool.totalCount).toBe(0);
    expect(() => release()).not.toThrow();
    expect((await own.pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  }));

it('a restart nobody has heard of yet still answers a query in flight: it fails at once instead of waiting for good', () =>
  throughProxy(async (own, proxy) => {
    let pid: number | undefined;
    try {
      const busy = await own.pool.connect();
      pid = (busy as unknown as { processID: number }).processID;
      const inFlight = busy.query('select pg_sleep(600)').catch((error: unknown) => error);
      await expect
        .poll(
          async () =>
            (await admin.query('select 1 from pg_stat_activity where pid = $1 and state = $2', [pid, 'active']))
              .rowCount,
        )
        .toBe(1);
      proxy.severQuietly();
      // Without an answer the query would wait the whole ten minutes (and its pool's close with it).
      expect(isDependencyOutage(await inFlight)).toBe(true);
      busy.release(true);
      expect((await own.pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      // The server's side of the cut query sleeps on, unaware, until ended.
      if (pid) await terminate(pid);
    }
  }));

it('a release acts once per checkout: a late one never returns the client’s next checkout, and an error still drops it', async () => {
  const first = await checkOut(database.pool);
  first.release();
  const second = await checkOut(database.pool);
  expect(second.client).toBe(first.client);
  const idle = database.pool.idleCount;
  first.release();
  expect(database.pool.idleCount).toBe(idle);
  const total = database.pool.totalCount;
  second.release(new Error('broken'));
  expect(database.pool.totalCount).toBe(total - 1);
  expect(() => second.client.release()).not.toThrow();
});
