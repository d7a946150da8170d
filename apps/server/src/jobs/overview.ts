import { addDays, addMonths, dateInMonth, kstDate, kstIso, kstMonth } from '@ohgood/contract/kst';
import type { JobRow, JobRunRow } from '@ohgood/contract/ops-collections';
import { Cron } from 'croner';
import { desc, inArray } from 'drizzle-orm';
import { jobRuns } from '../db/schema';
import type { Executor } from '../db/tx';
import { REGISTRY, type RegisteredJob } from './registry';
import { instanceRunRow, instanceRuns } from './run-records';
import { isJobName, JOBS, type JobName, periodOf, scheduledAt } from './runner';

/*
 * The console's view of the job registry (docs/rules/operations.md#O22), read from the registry, the calendar
 * jobs' table (`JOBS`), `job_runs` and this process's instance runs through this one file.
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

/** A recurring job's cron in words: the patterns the registry uses, else the pattern itself. */
export function cronText(cron: string): string {
  const [minute = '', hour = '', ...rest] = cron.split(' ');
  if (hour !== '*' || rest.some((field) => field !== '*')) return cron;
  if (minute === '*') return '1분마다';
  if (/^\*\/\d+$/.test(minute)) return `${minute.slice(2)}분마다`;
  if (/^\d+$/.test(minute)) return `매시 ${minute}분`;
  return cron;
}

/** An interval in words: seconds under a minute, else minutes. */
const intervalText = (ms: number) => (ms < 60_000 ? `${ms / 1000}초마다` : `${ms / 60_000}분마다`);

type RunRecord = typeof jobRuns.$inferSelect;

/** A recorded run as the page shows it (a calendar run that has not finished is running: a failed one rolls back). */
const runRow = (run: RunRecord): JobRunRow => {
  const result = (run.result as Record<string, unknown> | null) ?? null;
  return {
    period: run.period,
    startedAt: kstIso(run.startedAt),
    finishedAt: run.finishedAt ? kstIso(run.finishedAt) : null,
    outcome: run.finishedAt ? 'done' : result && 'error' in result ? 'failed' : 'running',
    result,
  };
};

/**
 * A calendar job: its schedule, latest runs, next run and missed periods. A period counts as missed when its
 * time has passed with no run recorded, after the job's first recorded run in the window (a new database
 * missed nothing).
 */
function calendarRow(job: JobName, own: RunRecord[], now: Date): JobRow {
  const recorded = new Set(own.map((run) => run.period));
  const oldest = own.at(-1)?.period;
  const missed = scheduledDates(job, now)
    .map((date) => periodOf(job, date))
    .filter((period) => oldest !== undefined && period > oldest && !recorded.has(period));
  return {
    job,
    cadence: JOBS[job].cadence,
    scope: 'cluster',
    schedule: JOBS[job].cron,
    scheduleText: scheduleText(job),
    lastRuns: own.slice(0, LAST_RUNS).map(runRow),
    nextRun: kstIso(nextRunOf(job, now)),
    missed,
    rerunnable: true,
  };
}

/**
 * Every row of the job registry (jobs/registry.ts), in its order: the calendar jobs with their periods, the
 * recurring cluster jobs with the runs recorded cluster-wide, and the instance jobs with this server's runs.
 */
export async function jobsOverview(
  db: Executor,
  now: Date,
  registry: readonly RegisteredJob[] = REGISTRY,
): Promise<JobRow[]> {
  const runs = await db
    .select()
    .from(jobRuns)
    .where(
      inArray(
        jobRuns.job,
        registry.map((job) => job.name),
      ),
    )
    .orderBy(desc(jobRuns.period));
  return registry.map((job): JobRow => {
    const own = runs.filter((run) => run.job === job.name);
    if (isJobName(job.name)) return calendarRow(job.name, own, now);
    const recurring = { job: job.name, cadence: 'recurring' as const, missed: [], rerunnable: false };
    if ('cron' in job.schedule) {
      const next = new Cron(job.schedule.cron, { timezone: 'Asia/Seoul', paused: true }).nextRun(now);
      return {
        ...recurring,
        scope: job.scope,
        schedule: job.schedule.cron,
        scheduleText: cronText(job.schedule.cron),
        lastRuns: own.slice(0, LAST_RUNS).map(runRow),
        nextRun: kstIso(next ?? now),
      };
    }
    const mine = instanceRuns.get(job.name) ?? [];
    const last = mine[0]?.startedAt;
    return {
      ...recurring,
      scope: job.scope,
      schedule: `every ${job.schedule.everyMs / 1000}s`,
      scheduleText: intervalText(job.schedule.everyMs),
      lastRuns: mine.slice(0, LAST_RUNS).map(instanceRunRow),
      nextRun: kstIso(new Date((last ?? now).getTime() + job.schedule.everyMs)),
    };
  });
}
