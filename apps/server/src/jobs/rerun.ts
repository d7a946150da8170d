import { dateInMonth, kstDate, kstIso } from '@ohgood/contract/kst';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobRuns } from '../db/schema';
import type { Tx } from '../db/tx';
import type { Clock } from '../lib/clock';
import { conflict, notFound } from '../lib/errors';
import { isJobName, JOBS, type JobContext, type JobName, periodOf, runJob, scheduledAt } from './runner';

export interface RerunOptions {
  context?: JobContext;
  /** Written in the run's transaction (the console's audit row). */
  audit: (tx: Tx, result: object) => Promise<void>;
  /** Work after the run commits, as the scheduler does (autopay's debits after its plan). */
  afterRun?: (job: JobName) => Promise<void>;
}

/**
 * Runs one missed period of a job now (docs/rules/operations.md#O22), exactly as catch-up would: through
 * `runJob`, whose `job_runs` key lets one instance of the cluster do it, and with catch-up's rule for a day
 * whose moment has passed (a late reminder is recorded as skipped, not sent). A period that already ran, or
 * whose time has not come, is refused with the reason.
 */
export async function rerunPeriod(db: Db, clock: Clock, name: string, date: string, options: RerunOptions) {
  if (!isJobName(name)) throw notFound('JOB_NOT_FOUND', '그런 예약 작업이 없습니다.');
  const job = name;
  const spec = JOBS[job];
  // A monthly job's period is its month; it runs on its day of that month.
  const runDate = spec.cadence === 'monthly' ? dateInMonth(date.slice(0, 7), spec.day) : date;
  const period = periodOf(job, runDate);
  const now = clock.now();
  if (scheduledAt(job, runDate).getTime() > now.getTime()) {
    throw conflict('JOB_PERIOD_NOT_DUE', `${period}의 실행 시각이 아직 오지 않았습니다.`);
  }
  const late = spec.cadence === 'daily' && spec.missed === 'today' && runDate < kstDate(now);
  const outcome = await runJob(db, clock, job, runDate, {
    skipped: late ? 'late' : undefined,
    context: options.context,
    alongside: options.audit,
  });
  if (!outcome.ran) {
    const [row] = await db
      .select({ startedAt: jobRuns.startedAt })
      .from(jobRuns)
      .where(and(eq(jobRuns.job, job), eq(jobRuns.period, period)));
    const at = row ? ` (${kstIso(row.startedAt).slice(0, 16).replace('T', ' ')} 시작)` : '';
    throw conflict('JOB_PERIOD_ALREADY_RAN', `${period}은(는) 이미 실행된 기간입니다${at}. 다시 실행하지 않았습니다.`);
  }
  if (!late) await options.afterRun?.(job);
  return { job, period, result: outcome.result as Record<string, unknown> | null };
}
