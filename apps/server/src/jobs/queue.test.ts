import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../db/client';
import { ManualClock } from '../lib/clock';
import { isDependencyOutage } from '../lib/unavailable';
import type { BankStatements } from '../modules/bank/gateway';
import { deferred } from '../test/deferred';
import { startDatabaseProxy } from '../test/tcp-proxy';
import { openTestDatabase, type TestDatabase } from '../test/test-database';
import { type JobQueue, startJobQueue } from './queue';
import { type ClusterWork, calendarJob, catchUpJob, type RegisteredJob } from './registry';
import type { JobName, JobOutcome } from './runner';

/*
 * The cluster's jobs on the job queue, with real PostgreSQL: several instances (each its own pool and
 * worker) add the same period at its due instant, and the database goes away between a period's add and
 * its run, or in the middle of its run. Each period is done exactly once, recorded in `job_runs`.
 */
let database: TestDatabase;
let admin: pg.Client;
/**
 * The process's last net, as main.ts sets it: a query of the library's own that met the restart and that it
 * does not await is an outage, logged and dropped; anything else still fails the file.
 */
const outagesOnly = (reason: unknown) => {
  if (!isDependencyOutage(reason)) throw reason;
};
beforeAll(() => {
  process.on('unhandledRejection', outagesOnly);
});
afterAll(() => {
  process.off('unhandledRejection', outagesOnly);
});
beforeAll(async () => {
  database = await openTestDatabase();
  admin = new pg.Client({ connectionString: database.ownerUrl });
  admin.on('error', () => undefined);
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await database?.close();
});

const quiet = { error() {}, warn() {}, info() {}, debug() {} } as unknown as FastifyBaseLogger;

/** A log that keeps its error lines' messages. */
function errorLog() {
  const errors: string[] = [];
  const log = { ...quiet, error: (_meta: object, message: string) => errors.push(message) };
  return { log: log as unknown as FastifyBaseLogger, errors };
}

/** A database restart as each connection sees it: every backend on the test database but ours is ended. */
const restartDatabase = () =>
  admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );

/**
 * One app instance: its own pool (the runtime role, on `url`: the test database unless given) and worker;
 * `outcomes` are its calendar runs.
 */
async function instance(
  clock: ManualClock,
  jobs: readonly RegisteredJob[],
  { bank, url = database.url, log = quiet }: { bank?: BankStatements; url?: string; log?: FastifyBaseLogger } = {},
) {
  const own: Database = await connectDatabase(url, { kind: database.kind, migrate: false });
  const outcomes: JobOutcome[] = [];
  const failures: unknown[] = [];
  const work: ClusterWork = {
    db: own.db,
    clock,
    context: bank && { bank },
    autopayDebits: async () => ({}),
    payouts: async () => ({}),
    pushes: async () => 0,
    webhooks: async () => 0,
    mediaSweep: async () => ({}),
    reported: (_job, _seconds, outcome) => {
      if ('error' in outcome) failures.push(outcome.error);
      else outcomes.push(outcome);
    },
  };
  const queue: JobQueue = await startJobQueue(own.pool, work, log, jobs);
  return {
    queue,
    pool: own.pool,
    outcomes,
    failures,
    async close() {
      await queue.stop();
      await own.close();
    },
  };
}

/** Read on the test's own connection, which the restart spares. */
const runsOf = async (job: JobName, period: string) =>
  (
    await admin.query<{ finished_at: Date | null; result: object | null }>(
      'select finished_at, result from job_runs where job = $1 and period = $2',
      [job, period],
    )
  ).rows;

/** Jobs still waiting or held in the queue. */
const queued = async () => Number((await admin.query('select count(*) as n from graphile_worker.jobs')).rows[0].n);

it('two instances add the same period at its due instant: it runs once, recorded once', async () => {
  const due = new Date('2027-05-16T00:05:00+09:00');
  const clock = new ManualClock(due);
  const job = calendarJob('auto-extension');
  const [a, b] = await Promise.all([instance(clock, [job]), instance(clock, [job])]);
  try {
    await Promise.all([a.queue.add(job, due), b.queue.add(job, due), a.queue.add(job, due)]);
    await expect.poll(async () => (await runsOf('auto-extension', '2027-05')).length, { timeout: 20_000 }).toBe(1);
    await expect.poll(queued, { timeout: 20_000 }).toBe(0);
    const done = [...a.outcomes, ...b.outcomes];
    expect(done.filter((o) => o.ran)).toEqual([expect.objectContaining({ job: 'auto-extension', period: '2027-05' })]);
    expect([...a.failures, ...b.failures]).toEqual([]);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}, 60_000);

it('the database restarts between a period’s add and its run: an instance started afterwards runs it once', async () => {
  const due = new Date('2027-06-01T00:05:00+09:00');
  const clock = new ManualClock(due);
  const job = calendarJob('overdue');
  // An instance whose worker takes no job adds the period, then goes away with the database.
  const adder = await instance(clock, []);
  await adder.queue.add(job, due);
  await adder.close();
  expect(await queued()).toBe(1);
  await restartDatabase();

  // Two instances come up after the restart; their own timers add the same period again.
  const [b, c] = await Promise.all([instance(clock, [job]), instance(clock, [job])]);
  try {
    await Promise.all([b.queue.add(job, due), c.queue.add(job, due)]);
    await expect.poll(async () => (await runsOf('overdue', '2027-06')).length, { timeout: 20_000 }).toBe(1);
    await expect.poll(queued, { timeout: 20_000 }).toBe(0);
    expect([...b.outcomes, ...c.outcomes].filter((o) => o.ran)).toHaveLength(1);
  } finally {
    await Promise.all([b.close(), c.close()]);
  }
}, 60_000);

it('the database restarts in the middle of a run: it rolls back, and the catch-up job runs the period once', async () => {
  const due = new Date('2027-06-03T01:30:00+09:00');
  const clock = new ManualClock(due);
  const job = calendarJob('reconciliation');
  const inside = deferred<void>();
  const release = deferred<void>();
  let reads = 0;
  // The bank's statement is read inside the run's transaction (its `job_runs` row already claimed): the first
  // read waits there until the database has gone away under it.
  const bank: BankStatements = {
    async movements() {
      reads += 1;
      if (reads === 1) {
        inside.resolve();
        await release.promise;
      }
      return [];
    },
  };
  const [a, b] = await Promise.all([
    instance(clock, [job, catchUpJob], { bank }),
    instance(clock, [job, catchUpJob], { bank }),
  ]);
  try {
    await a.queue.add(job, due);
    await inside.promise;
    await restartDatabase();
    release.resolve();
    // The run failed with the database gone, and so did the worker's report of it: the job stays locked
    // (the library frees it after hours). The hourly catch-up finds the period missing and runs it.
    await expect
      .poll(async () => (await admin.query('select 1 from graphile_worker.jobs where locked_at is not null')).rowCount)
      .toBe(1);
    // An add may meet a connection the restart cut before its pool heard of it: it is tried again.
    await expect
      .poll(() =>
        a.queue.add(catchUpJob, due).then(
          () => true,
          () => false,
        ),
      )
      .toBe(true);
    await expect.poll(async () => (await runsOf('reconciliation', '2027-06-03')).length, { timeout: 30_000 }).toBe(1);
    const [row] = await runsOf('reconciliation', '2027-06-03');
    expect(row?.finished_at).not.toBeNull();
    expect(row?.result).toMatchObject({ day: '2027-06-02', mismatches: 0 });
    expect(reads).toBe(2);
    expect([...a.failures, ...b.failures]).toHaveLength(1);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}, 60_000);

/** The backends holding the worker's LISTEN (the library's listening connection). */
const listeners = async () =>
  (
    await admin.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = current_database() and query like 'LISTEN%'`,
    )
  ).rows.map((r) => r.pid);

/** The PostgreSQL backend a pool client talks to (node-postgres keeps it, untyped). */
const backendOf = (client: pg.PoolClient) => (client as unknown as { processID: number }).processID;

it('the database restarts under the worker’s LISTEN and the pool hands it a connection cut unseen: nothing escapes, and a new job runs', async () => {
  const due = new Date('2027-07-16T00:05:00+09:00');
  const clock = new ManualClock(due);
  const job = calendarJob('auto-extension');
  const escaped: unknown[] = [];
  const keepEscaped = (reason: unknown) => {
    if (!isDependencyOutage(reason)) escaped.push(reason);
  };
  process.prependListener('unhandledRejection', keepEscaped);
  const { proxy, via } = await startDatabaseProxy(database.url);
  const { log, errors } = errorLog();
  const a = await instance(clock, [job], { url: via(database.url), log });
  try {
    await expect.poll(listeners, { timeout: 20_000 }).toHaveLength(1);
    const [listening] = await listeners();
    // Connections idle in the pool, as the worker's polls leave them: more than its polls can take (one
    // each, failing) before the worker listens again.
    const held = await Promise.all([1, 2, 3, 4].map(() => a.pool.connect()));
    for (const client of held) client.release();
    // The restart reaches the LISTEN connection first; the pool's idle ones are gone as well, but their
    // clients have not heard of it when the worker listens again on one of them.
    a.pool.on('release', (_error, client) => {
      if (backendOf(client) === listening) proxy.severQuietly();
    });
    await admin.query('select pg_terminate_backend($1)', [listening]);
    await expect
      .poll(async () => (await listeners()).filter((pid) => pid !== listening), { timeout: 30_000 })
      .toHaveLength(1);
    // The worker lost its LISTEN to the restart, then again to a cut connection, and listens again.
    expect(errors.filter((message) => message.includes('notify listener')).length).toBeGreaterThanOrEqual(2);
    expect(escaped).toEqual([]);

    await a.queue.add(job, due);
    await expect.poll(async () => (await runsOf('auto-extension', '2027-07')).length, { timeout: 20_000 }).toBe(1);
    expect(a.outcomes.filter((o) => o.ran)).toHaveLength(1);
    expect(escaped).toEqual([]);
  } finally {
    process.off('unhandledRejection', keepEscaped);
    await a.close();
    await proxy.close();
  }
}, 60_000);
