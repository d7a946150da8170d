import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobRuns } from '../db/schema';
import { createHarness, type Harness } from '../test/harness';
import { kstAt } from '../test/notice-helpers';
import { signedInOperator } from '../test/staff-fixture';
import { startJobQueue } from './queue';
import { type ClusterWork, REGISTRY } from './registry';
import { instanceRun, RUNS_KEPT } from './run-records';

/*
 * The jobs page shows every row of the job registry (docs/rules/operations.md#O22), not only the calendar
 * jobs: the recurring cluster jobs with the runs the queue recorded cluster-wide (a failed one with its error),
 * and the instance jobs with this server's runs. Only the calendar jobs offer a re-run.
 */

let h: Harness;
let risk: Record<string, string>;
let admin: Record<string, string>;
beforeAll(async () => {
  h = await createHarness({ now: kstAt('2026-12-10', 12, 1).toISOString() });
  risk = (await signedInOperator(h, 'RISK')).auth;
  admin = (await signedInOperator(h, 'ADMIN')).auth;
});
afterAll(() => h.close());

const quiet = { error() {}, warn() {}, info() {}, debug() {} } as unknown as FastifyBaseLogger;
const row = (name: string) => {
  const job = REGISTRY.find((j) => j.name === name);
  if (!job) throw new Error(`no ${name}`);
  return job;
};

interface Listed {
  job: string;
  scope: string;
  cadence: string;
  schedule: string;
  scheduleText: string;
  nextRun: string;
  missed: string[];
  rerunnable: boolean;
  lastRuns: Array<{ period: string; outcome: string; result: Record<string, unknown> | null }>;
}
const listed = async () => {
  const res = await h.app.inject({ method: 'GET', url: '/api/ops/jobs', headers: risk });
  expect(res.statusCode).toBe(200);
  return res.json().items as Listed[];
};

describe('the jobs page', () => {
  it('lists every registry row, each with its scope, schedule and next run', async () => {
    const jobs = await listed();
    expect(jobs.map((job) => job.job)).toEqual(REGISTRY.map((job) => job.name));
    const byName = new Map(jobs.map((job) => [job.job, job]));
    expect(byName.get('push-sending')).toMatchObject({
      scope: 'cluster',
      cadence: 'recurring',
      schedule: '*/5 * * * *',
      scheduleText: '5분마다',
      nextRun: '2026-12-10T12:05:00+09:00',
      missed: [],
      rerunnable: false,
    });
    expect(byName.get('media-sweep')).toMatchObject({
      scheduleText: '매시 41분',
      nextRun: '2026-12-10T12:41:00+09:00',
    });
    expect(byName.get('catch-up')).toMatchObject({ scope: 'cluster', scheduleText: '매시 17분' });
    expect(byName.get('payment-expiry')).toMatchObject({
      scheduleText: '1분마다',
      nextRun: '2026-12-10T12:02:00+09:00',
    });
    expect(byName.get('transcode-takeover')).toMatchObject({ scope: 'instance', scheduleText: '10초마다' });
    expect(byName.get('ranking-refresh')).toMatchObject({ scope: 'instance', schedule: 'every 60s' });
    expect(byName.get('autopay')).toMatchObject({ scope: 'cluster', cadence: 'daily', rerunnable: true });
  });

  it('shows the runs the queue made of recurring jobs, a failure with its error, keeping the latest few', async () => {
    const work: ClusterWork = {
      db: h.database.db,
      clock: h.clock,
      autopayDebits: async () => ({}),
      payouts: async () => ({}),
      pushes: async () => 3,
      webhooks: async () => {
        throw new Error('receiver unreachable');
      },
      mediaSweep: async () => ({}),
    };
    const pushes = row('push-sending');
    const webhooks = row('webhook-sending');
    const queue = await startJobQueue(h.database.pool, work, quiet, [pushes, webhooks]);
    const runsOf = async (job: string) =>
      (await h.database.db.select().from(jobRuns).where(eq(jobRuns.job, job))).filter((run) => run.finishedAt);
    try {
      for (let i = 0; i < RUNS_KEPT + 2; i++) {
        await queue.add(pushes, new Date(kstAt('2026-12-10', 11, 5 * i).getTime()));
        // One due instant at a time: the record of each is in before the next is added.
        await expect
          .poll(async () => (await runsOf('push-sending')).length, { timeout: 20_000 })
          .toBe(Math.min(i + 1, RUNS_KEPT));
      }
      await queue.add(webhooks, kstAt('2026-12-10', 12, 0));
      await expect
        .poll(
          async () =>
            (await h.database.db.select().from(jobRuns).where(eq(jobRuns.job, 'webhook-sending'))).at(0)?.result,
          {
            timeout: 20_000,
          },
        )
        .toEqual({ error: 'receiver unreachable' });
    } finally {
      await queue.stop();
    }
    const jobs = await listed();
    const push = jobs.find((job) => job.job === 'push-sending');
    expect(push?.lastRuns.map((run) => run.period)).toEqual([
      '2026-12-10T11:30',
      '2026-12-10T11:25',
      '2026-12-10T11:20',
      '2026-12-10T11:15',
      '2026-12-10T11:10',
    ]);
    expect(push?.lastRuns[0]).toMatchObject({ outcome: 'done', result: { handled: 3 } });
    const webhook = jobs.find((job) => job.job === 'webhook-sending');
    expect(webhook?.lastRuns).toEqual([
      expect.objectContaining({
        period: '2026-12-10T12:00',
        outcome: 'failed',
        finishedAt: null,
        result: { error: 'receiver unreachable' },
      }),
    ]);
  }, 90_000);

  it("shows this server's runs of an instance job", async () => {
    await instanceRun(h.clock, 'ranking-refresh', async () => undefined);
    const ranking = (await listed()).find((job) => job.job === 'ranking-refresh');
    expect(ranking?.lastRuns).toEqual([
      expect.objectContaining({ startedAt: '2026-12-10T12:01:00+09:00', outcome: 'done' }),
    ]);
    expect(ranking?.nextRun).toBe('2026-12-10T12:02:00+09:00');
  });

  it('refuses a re-run of a recurring job: only the calendar periods are re-run', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/ops/jobs/push-sending/runs',
      headers: admin,
      payload: { date: '2026-12-10', reason: '푸시 다시 보내기' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('JOB_NOT_FOUND');
  });
});
