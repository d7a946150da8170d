import { kstDate, kstIso } from '@ohgood/contract/kst';
import type { Db } from '../db/client';
import type { Clock } from '../lib/clock';
import { expireDueRequests } from '../modules/merchants/expiry';
import { RANK_REFRESH_MS } from '../modules/shorts/ranking';
import { TRANSCODE_LEASE } from '../modules/shorts/transcode-lease';
import { catchUp, isJobName, JOBS, type JobContext, type JobName, type JobOutcome, periodOf, runJob } from './runner';

/**
 * Every recurring or deferred piece of background work, in one table (ADR 0216): its name, its schedule, where
 * it runs, and the function it runs. The bodies live in their domain modules; this table only says when.
 *
 * - `schedule`: a KST cron pattern or an interval, both on the app's clock (CLOCK_START and the tests'
 *   clocks move it; the machine's time does not decide a period).
 * - `scope`: `cluster` work is enqueued on the job queue at each due instant under the key `<name>:<period>`,
 *   so exactly one instance runs each period, with the queue's retries and back-off; `instance` work keeps
 *   state of its own process (a cache, an in-process queue) and runs on every instance.
 * - `run`: given the work the app composed (`ClusterWork` or `InstanceWork`) and, for cluster work, the
 *   period's due instant.
 *
 * A new piece of background work is one more row. The outbox relay (events/relay.ts) is the one exception: its
 * poll shares the spacing of its commit wake-ups, so it keeps its own timer (ADR 0213).
 */
export type RegisteredJob =
  | { name: string; schedule: Schedule; scope: 'cluster'; run: (work: ClusterWork, due: Date) => Promise<unknown> }
  | { name: string; schedule: Schedule; scope: 'instance'; run: (work: InstanceWork) => Promise<unknown> };

export type Schedule = { cron: string } | { everyMs: number };

/**
 * What the cluster's jobs run, handed in where the app is composed (main.ts): the database and clock for the
 * calendar jobs, and the domain modules' entry points for the rest.
 */
export interface ClusterWork {
  db: Db;
  clock: Clock;
  /** What the calendar jobs read outside the database (the bank's statement). */
  context?: JobContext;
  /** Autopay's debit attempts that are due (after the daily plan, and retries a bank asked for). */
  autopayDebits(): Promise<object>;
  /** Settlement payouts that are due (modules/settlements/payouts.ts), retried until the bank credits them. */
  payouts(): Promise<object>;
  /** Pushes that are due (held back by quiet hours, or retried). */
  pushes(): Promise<number>;
  /** Merchant webhook deliveries due now: retries after their back-off, and any a wake-up missed. */
  webhooks(): Promise<number>;
  /** The media sweep (modules/media/sweep.ts): owed deletes, then objects no row refers to. */
  mediaSweep(): Promise<object>;
  /** Reports a calendar job's run or its failure (logs, staff alerts, metrics); the scheduler supplies it. */
  reported?(job: JobName, seconds: number, outcome: JobOutcome | { error: unknown }): void;
}

/** What each instance runs for its own process's state. */
export interface InstanceWork {
  /** The feed ranking's freshness term moves on even when nobody reads the feed. */
  rankingRefresh(): Promise<void>;
  /** Transcodes whose instance stopped renewing their lease are taken over. */
  transcodeTakeover(): Promise<void>;
}

/** The autopay debits and pushes look for due rows this often (one cheap indexed query each). */
const DUE_ROWS_CRON = '*/5 * * * *';
/**
 * Unpaid requests past their expiry are closed with their `payment.expired` event each minute (ADR 0237): a
 * request lives two minutes, so its merchant's webhook hears of the expiry within a minute of it.
 */
const EXPIRY_CRON = '* * * * *';
/** The media sweep lists the swept prefixes of the store: hourly, off the hour's busy minutes. */
const MEDIA_SWEEP_CRON = '41 * * * *';
/**
 * The calendar's catch-up also runs hourly, not only at start-up: a run the database lost mid-flight (a
 * restart between the run and the queue hearing of its failure) stays locked in the queue for hours, and
 * this finds its period missing from `job_runs` and runs it.
 */
const CATCH_UP_CRON = '17 * * * *';

/**
 * A calendar job (runner.ts `JOBS`): its period is the KST date or month of its due instant, claimed in
 * `job_runs`, the record of a period. After autopay's plan its debits run, then the pushes they owe.
 */
export const calendarJob = (job: JobName): RegisteredJob => ({
  scope: 'cluster',
  name: job,
  schedule: { cron: JOBS[job].cron },
  async run(work: ClusterWork, due: Date) {
    const startedAt = performance.now();
    const seconds = () => (performance.now() - startedAt) / 1000;
    const outcome = await runJob(work.db, work.clock, job, kstDate(due), { context: work.context }).catch(
      (error: unknown) => {
        work.reported?.(job, seconds(), { error });
        throw error;
      },
    );
    work.reported?.(job, seconds(), outcome);
    if (job === 'autopay') await debitsAfterPlan(work);
    // A close's payouts due today (a catch-up's older days) are paid at once, not at the next tick.
    if (job === 'settlement') await work.payouts();
    return outcome;
  },
});

/** After autopay's daily plan: its debits, then the pushes they owe. */
async function debitsAfterPlan(work: ClusterWork): Promise<void> {
  await work.autopayDebits();
  await work.pushes();
}

/** Every calendar period missed (runner.ts `catchUp`), in the order the days would have run them. */
export const catchUpJob: RegisteredJob = {
  name: 'catch-up',
  schedule: { cron: CATCH_UP_CRON },
  scope: 'cluster',
  run: (work) =>
    catchUp(
      work.db,
      work.clock,
      async (outcome) => {
        if (outcome.job === 'autopay') await debitsAfterPlan(work);
      },
      work.context,
    ),
};

export const REGISTRY: readonly RegisteredJob[] = [
  calendarJob('statement-issue'),
  calendarJob('auto-extension'),
  calendarJob('overdue'),
  calendarJob('reminders'),
  calendarJob('autopay'),
  calendarJob('reconciliation'),
  calendarJob('prune'),
  calendarJob('settlement'),
  catchUpJob,
  {
    name: 'payment-expiry',
    schedule: { cron: EXPIRY_CRON },
    scope: 'cluster',
    run: (w) => expireDueRequests(w.db, w.clock.now()),
  },
  { name: 'autopay-debits', schedule: { cron: DUE_ROWS_CRON }, scope: 'cluster', run: (w) => w.autopayDebits() },
  { name: 'settlement-payouts', schedule: { cron: DUE_ROWS_CRON }, scope: 'cluster', run: (w) => w.payouts() },
  { name: 'push-sending', schedule: { cron: DUE_ROWS_CRON }, scope: 'cluster', run: (w) => w.pushes() },
  { name: 'webhook-sending', schedule: { cron: DUE_ROWS_CRON }, scope: 'cluster', run: (w) => w.webhooks() },
  { name: 'media-sweep', schedule: { cron: MEDIA_SWEEP_CRON }, scope: 'cluster', run: (w) => w.mediaSweep() },
  {
    name: 'ranking-refresh',
    schedule: { everyMs: RANK_REFRESH_MS },
    scope: 'instance',
    run: (w) => w.rankingRefresh(),
  },
  {
    name: 'transcode-takeover',
    schedule: { everyMs: TRANSCODE_LEASE.takeoverMs },
    scope: 'instance',
    run: (w) => w.transcodeTakeover(),
  },
];

/** One period of a cluster job: a calendar job's `job_runs` period, else its due minute (KST). */
export function duePeriod(job: RegisteredJob, due: Date): string {
  return isJobName(job.name) ? periodOf(job.name, kstDate(due)) : kstIso(due).slice(0, 16);
}

/** The queue key of one period of a cluster job. */
export function periodKey(job: RegisteredJob, due: Date): string {
  return `${job.name}:${duePeriod(job, due)}`;
}
