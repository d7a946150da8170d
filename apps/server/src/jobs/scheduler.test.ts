import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { jobRuns } from '../db/schema';
import { ManualClock, shiftedClock } from '../lib/clock';
import type { BankMovement, BankStatements } from '../modules/bank/gateway';
import { openTestDatabase } from '../test/test-database';
import { startScheduler } from './scheduler';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

/**
 * A logger that resolves `finished(job)` when the scheduler logs that job's run, and `warned` with the first
 * warn line.
 */
function recordingLog() {
  const waiters = new Map<string, (outcome: unknown) => void>();
  let warn: (line: { fields: unknown; msg: string }) => void = () => undefined;
  const warned = new Promise<{ fields: unknown; msg: string }>((resolve) => {
    warn = resolve;
  });
  const log = {
    info(outcome: { job?: string }, msg: string) {
      if (msg === 'scheduled job finished' && outcome.job) waiters.get(outcome.job)?.(outcome);
    },
    warn(fields: unknown, msg: string) {
      warn({ fields, msg });
    },
    error() {},
  } as unknown as FastifyBaseLogger;
  const finished = (job: string) => new Promise((resolve) => waiters.set(job, resolve));
  return { log, finished, warned };
}

it('runs a job when the shifted clock (CLOCK_START) passes its boundary while the server runs', async () => {
  // Two seconds before the 16th 00:05 KST, the auto-extension's instant; the machine's own date is elsewhere.
  const clock = shiftedClock(new Date(Date.parse('2027-03-16T00:05:00+09:00') - 2_000));
  const { log, finished } = recordingLog();
  const ran = finished('auto-extension');
  const stop = await startScheduler(database, clock, log, {
    autopay: async () => ({}),
    payouts: async () => ({}),
    pushes: async () => 0,
    webhooks: async () => 0,
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
    await stop();
  }
});

it('runs the media sweep when the clock passes its minute of the hour', async () => {
  // Two seconds before xx:41 KST, the sweep's minute.
  const clock = shiftedClock(new Date(Date.parse('2027-03-16T10:41:00+09:00') - 2_000));
  const { log } = recordingLog();
  let swept: (at: Date) => void = () => undefined;
  const sweptAt = new Promise<Date>((resolve) => {
    swept = resolve;
  });
  const stop = await startScheduler(database, clock, log, {
    autopay: async () => ({}),
    payouts: async () => ({}),
    pushes: async () => 0,
    webhooks: async () => 0,
    mediaSweep: async () => {
      swept(clock.now());
      return {};
    },
  });
  try {
    expect((await sweptAt).getTime()).toBeGreaterThanOrEqual(Date.parse('2027-03-16T10:41:00+09:00'));
  } finally {
    await stop();
  }
});

it('says at warn level that a reconciled day does not match, when its run finds a mismatch', async () => {
  // Two seconds before 01:30 KST on 2 April, when the 1st is reconciled; the bank booked a debit on the 1st
  // that no book entry of ours explains.
  const clock = shiftedClock(new Date(Date.parse('2027-04-02T01:30:00+09:00') - 2_000));
  const stray: BankMovement = {
    direction: 'debit',
    reference: 'autopay:424242:2027-04-01',
    amount: 9_900,
    at: new Date('2027-04-01T12:00:00+09:00'),
  };
  const bank: BankStatements = {
    movements: async (from, to) => (stray.at >= from && stray.at < to ? [stray] : []),
  };
  const { log, finished, warned } = recordingLog();
  const ran = finished('reconciliation');
  const stop = await startScheduler(
    database,
    clock,
    log,
    {
      autopay: async () => ({}),
      payouts: async () => ({}),
      pushes: async () => 0,
      webhooks: async () => 0,
      mediaSweep: async () => ({}),
    },
    undefined,
    { bank },
  );
  try {
    expect(await ran).toMatchObject({ period: '2027-04-02', result: { day: '2027-04-01', mismatches: 1 } });
    expect(await warned).toEqual({
      fields: expect.objectContaining({ job: 'reconciliation', period: '2027-04-02' }),
      msg: '2027-04-01 대사에서 불일치 1건이 발견됐어요. 운영 콘솔의 대사 화면에서 확인해주세요.',
    });
  } finally {
    await stop();
  }
});

it('queues an instant that passes while the start-up catch-up runs at once, not a period later', async () => {
  const boundary = Date.parse('2027-05-16T00:05:00+09:00');
  const clock = new ManualClock(new Date(boundary - 1_000));
  const { log, finished } = recordingLog();
  const ran = finished('auto-extension');
  const stop = await startScheduler(database, clock, log, {
    // A slow start: the 16th 00:05 KST passes while the catch-up's background work runs.
    autopay: async () => {
      clock.set(new Date(boundary + 1_000));
      return {};
    },
    payouts: async () => ({}),
    pushes: async () => 0,
    webhooks: async () => 0,
    mediaSweep: async () => ({}),
  });
  try {
    // Armed from after the catch-up, the timer would wait for June's 16th.
    expect(await ran).toMatchObject({ job: 'auto-extension', period: '2027-05' });
    const rows = await database.db
      .select()
      .from(jobRuns)
      .where(and(eq(jobRuns.job, 'auto-extension'), eq(jobRuns.period, '2027-05')));
    expect(rows).toHaveLength(1);
  } finally {
    await stop();
  }
});
