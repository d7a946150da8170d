import { addDays, addMonths, dateInMonth, kstDate, kstIso, kstMonth } from '@ohgood/contract/kst';
import type { JobRow } from '@ohgood/contract/ops-collections';
import { desc, inArray } from 'drizzle-orm';
import { jobRuns } from '../db/schema';
import type { Executor } from '../db/tx';
import { JOBS, type JobName, periodOf, scheduledAt } from './runner';

/*
 * The console's view of the scheduled jobs (docs/rules/operations.md#O22), read from the job table (`JOBS`) and
 * `job_runs` through this one file, so moving the jobs onto a queue library repoints only it.
 */

/** How many of each job's latest runs the page shows, and how far back it looks for missed periods. */
const LAST_RUNS = 5;
const DAILY_LOOKBACK_DAYS = 14;
const MONTHLY_LOOKBACK_MONTHS = 3;

const hhmm = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

function scheduleText(job: JobName): string {
  const spec = JOBS[job];
  return spec.cadence === 'daily' ? `매일 ${hhmm(spec.minute)}` : `매월 ${spec.day}일 ${hhmm(spec.minute)}`;
}

/** The KST dates `job` was scheduled on in the lookback window, up to `now`, oldest first. */
export function scheduledDates(job: JobName, now: Date): string[] {
  const spec = JOBS[job];
  const dates: string[] = [];
  if (spec.cadence === 'daily') {
    for (let i = DAILY_LOOKBACK_DAYS - 1; i >= 0; i--) dates.push(addDays(kstDate(now), -i));
  } else {
    for (let i = MONTHLY_LOOKBACK_MONTHS - 1; i >= 0; i--)
      dates.push(dateInMonth(addMonths(kstMonth(now), -i), spec.day));
  }
  return dates.filter((date) => scheduledAt(job, date).getTime() <= now.getTime());
}

/** The next instant `job` is scheduled after `now`. */
export function nextRunOf(job: JobName, now: Date): Date {
  const spec = JOBS[job];
  const today = kstDate(now);
  const candidates =
    spec.cadence === 'daily'
      ? [today, addDays(today, 1)]
      : [dateInMonth(kstMonth(now), spec.day), dateInMonth(addMonths(kstMonth(now), 1), spec.day)];
  const next = candidates.map((date) => scheduledAt(job, date)).find((at) => at.getTime() > now.getTime());
  return next ?? scheduledAt(job, candidates[1] as string);
}

/**
 * Every job: its schedule, latest runs, next run and missed periods. A period counts as missed when its time has
 * passed with no run recorded, after the job's first recorded run in the window (a new database missed nothing).
 */
export async function jobsOverview(db: Executor, now: Date): Promise<JobRow[]> {
  const names = Object.keys(JOBS) as JobName[];
  const runs = await db.select().from(jobRuns).where(inArray(jobRuns.job, names)).orderBy(desc(jobRuns.period));
  return names.map((job) => {
    const own = runs.filter((run) => run.job === job);
    const recorded = new Set(own.map((run) => run.period));
    const oldest = own.at(-1)?.period;
    const missed = scheduledDates(job, now)
      .map((date) => periodOf(job, date))
      .filter((period) => oldest !== undefined && period > oldest && !recorded.has(period));
    return {
      job,
      cadence: JOBS[job].cadence,
      schedule: JOBS[job].cron,
      scheduleText: scheduleText(job),
      lastRuns: own.slice(0, LAST_RUNS).map((run) => ({
        period: run.period,
        startedAt: kstIso(run.startedAt),
        finishedAt: run.finishedAt ? kstIso(run.finishedAt) : null,
        result: (run.result as Record<string, unknown> | null) ?? null,
      })),
      nextRun: kstIso(nextRunOf(job, now)),
      missed,
    };
  });
}
