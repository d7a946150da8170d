import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, jobRuns } from '../db/schema';
import { createHarness, type Harness, secondInstance } from '../test/harness';
import { kstAt } from '../test/notice-helpers';
import { signedInOperator } from '../test/staff-fixture';
import { runJob } from './runner';

/** The console's jobs page and an admin's re-run of a missed period (docs/rules/operations.md#O22). */

let h: Harness;
let admin: Record<string, string>;
beforeAll(async () => {
  h = await createHarness({ now: kstAt('2026-12-10', 12, 0).toISOString() });
  admin = (await signedInOperator(h, 'ADMIN')).auth;
  // The prune ran on the 7th and the 9th; the 8th was missed (no instance was up at 03:30).
  await runJob(h.database.db, h.clock, 'prune', '2026-12-07');
  await runJob(h.database.db, h.clock, 'prune', '2026-12-09');
  await runJob(h.database.db, h.clock, 'statement-issue', '2026-12-01');
});
afterAll(() => h.close());

const rerun = (app: Harness['app'], job: string, date: string, reason = '누락된 날 다시 실행') =>
  app.inject({ method: 'POST', url: `/api/ops/jobs/${job}/runs`, headers: admin, payload: { date, reason } });

describe('the jobs page', () => {
  it('lists every job with its schedule, last runs with their counts, next run and missed periods', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/ops/jobs', headers: admin });
    expect(res.statusCode).toBe(200);
    const all = res.json().items as Array<{
      job: string;
      cadence: string;
      lastRuns: Array<{ period: string; result: object }>;
    }>;
    // The calendar jobs, in the registry's order (overview.test.ts covers the recurring and instance rows).
    const jobs = all.filter((job) => job.cadence !== 'recurring');
    expect(jobs.map((job) => job.job)).toEqual([
      'statement-issue',
      'auto-extension',
      'overdue',
      'reminders',
      'autopay',
      'reconciliation',
      'prune',
      'settlement',
    ]);
    const prune = jobs.find((job) => job.job === 'prune');
    expect(prune).toMatchObject({
      cadence: 'daily',
      scheduleText: '매일 03:30',
      nextRun: '2026-12-11T03:30:00+09:00',
      missed: ['2026-12-08', '2026-12-10'],
    });
    expect((prune?.lastRuns ?? []).map((run) => run.period)).toEqual(['2026-12-09', '2026-12-07']);
    const issue = jobs.find((job) => job.job === 'statement-issue');
    expect(issue).toMatchObject({ scheduleText: '매월 1일 00:05', nextRun: '2027-01-01T00:05:00+09:00', missed: [] });
    expect(issue?.lastRuns[0]?.result).toHaveProperty('issued');
    // A job that never ran on this database missed nothing yet.
    expect(jobs.find((job) => job.job === 'autopay')).toMatchObject({ missed: [], lastRuns: [] });
  });
});

describe('re-running a missed period', () => {
  it('runs exactly once across two instances; the other is told it already ran', async () => {
    const other = await secondInstance(h);
    try {
      const answers = await Promise.all([rerun(h.app, 'prune', '2026-12-08'), rerun(other, 'prune', '2026-12-08')]);
      expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 409]);
      const refused = answers.find((res) => res.statusCode === 409);
      expect(refused?.json().code).toBe('JOB_PERIOD_ALREADY_RAN');
      expect(refused?.json().message).toContain('이미 실행된 기간');
    } finally {
      await other.close();
    }
    const rows = await h.database.db
      .select()
      .from(jobRuns)
      .where(and(eq(jobRuns.job, 'prune'), eq(jobRuns.period, '2026-12-08')));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.finishedAt).not.toBeNull();
    const audit = await h.database.db.select().from(auditLog).where(eq(auditLog.action, 'job.rerun'));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ targetType: 'job', targetId: 'prune', reason: '누락된 날 다시 실행' });
  });

  it('refuses a period that ran, one not yet due and an unknown job, changing nothing', async () => {
    const ran = await rerun(h.app, 'statement-issue', '2026-12-01');
    expect(ran.statusCode).toBe(409);
    expect(ran.json().code).toBe('JOB_PERIOD_ALREADY_RAN');
    const future = await rerun(h.app, 'prune', '2026-12-11');
    expect(future.json().code).toBe('JOB_PERIOD_NOT_DUE');
    expect((await rerun(h.app, 'no-such-job', '2026-12-08')).statusCode).toBe(404);
    expect(await h.database.db.select().from(auditLog).where(eq(auditLog.action, 'job.rerun'))).toHaveLength(1);
  });

  it('records a reminder day that has passed as skipped, as catch-up does, rather than remind late', async () => {
    const res = await rerun(h.app, 'reminders', '2026-12-09');
    expect(res.json()).toEqual({ job: 'reminders', period: '2026-12-09', result: { skipped: 'late' } });
  });

  it('re-runs a reconciliation day that never ran', async () => {
    const res = await rerun(h.app, 'reconciliation', '2026-12-09', '대사 누락 재실행');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ job: 'reconciliation', period: '2026-12-09' });
    expect(res.json().result).toHaveProperty('mismatches', 0);
  });
});
