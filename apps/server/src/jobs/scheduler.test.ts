import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { jobRuns } from '../db/schema';
import { shiftedClock } from '../lib/clock';
import { openTestDatabase } from '../test/test-database';
import { startScheduler } from './scheduler';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

/** A logger that resolves `finished(job)` when the scheduler logs that job's run. */
function recordingLog() {
  const waiters = new Map<string, (outcome: unknown) => void>();
  const log = {
    info(outcome: { job?: string }, msg: string) {
      if (msg === 'scheduled job finished' && outcome.job) waiters.get(outcome.job)?.(outcome);
    },
    error() {},
  } as unknown as FastifyBaseLogger;
  const finished = (job: string) => new Promise((resolve) => waiters.set(job, resolve));
  return { log, finished };
}

it('runs a job when the shifted clock (CLOCK_START) passes its boundary while the server runs', async () => {
  // Two seconds before the 16th 00:05 KST, the auto-extension's instant; the machine's own date is elsewhere.
  const clock = shiftedClock(new Date(Date.parse('2027-03-16T00:05:00+09:00') - 2_000));
  const { log, finished } = recordingLog();
  const ran = finished('auto-extension');
  const stop = await startScheduler(database.db, clock, log, {
    autopay: async () => ({}),
    pushes: async () => 0,
    mediaSweep: async () => ({}),
  });
  try {
    const claimed = () =>
      database.db
        .select()
        .from(jobRuns)
        .where(and(eq(jobRuns.job, 'auto-extension'), eq(jobRuns.period, '2027-03')));
    expect(await claimed()).toEqual([]);
    expect(await ran).toMatchObject({ job: 'auto-extension', period: '2027-03', ran: true });
    const [row] = await claimed();
    expect(row?.startedAt.getTime()).toBeGreaterThanOrEqual(Date.parse('2027-03-16T00:05:00+09:00'));
  } finally {
    stop();
  }
}, 30_000);

it('runs the media sweep when the clock passes its minute of the hour', async () => {
  // Two seconds before xx:41 KST, the sweep's minute.
  const clock = shiftedClock(new Date(Date.parse('2027-03-16T10:41:00+09:00') - 2_000));
  const { log } = recordingLog();
  let swept: (at: Date) => void = () => undefined;
  const sweptAt = new Promise<Date>((resolve) => {
    swept = resolve;
  });
  const stop = await startScheduler(database.db, clock, log, {
    autopay: async () => ({}),
    pushes: async () => 0,
    mediaSweep: async () => {
      swept(clock.now());
      return {};
    },
  });
  try {
    expect((await sweptAt).getTime()).toBeGreaterThanOrEqual(Date.parse('2027-03-16T10:41:00+09:00'));
  } finally {
    stop();
  }
}, 30_000);
