import { AUTOPAY_RULES } from '@ohgood/contract/autopay';
import { BILL_RULES } from '@ohgood/contract/bill-rules';
import {
  addDays,
  addMonths,
  dateInMonth,
  isCalendarDate,
  kstDate,
  kstMonth,
  kstStartOfDay,
} from '@ohgood/contract/kst';
import { NOTIFICATION_RULES } from '@ohgood/contract/notifications';
import { and, eq, min, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobRuns, statements } from '../db/schema';
import { type Tx, withTx } from '../db/tx';
import type { Clock } from '../lib/clock';
import { planAutopay } from '../modules/autopay/autopay-job';
import { remindDueStatements } from '../modules/autopay/reminders-job';
import type { BankStatements } from '../modules/bank/gateway';
import { createSandboxBank } from '../modules/bank/sandbox-bank';
import { reconcileDay } from '../modules/reconciliation/reconcile';
import { closeSettlements } from '../modules/settlements/close';
import { autoExtend, issueStatements, markOverdue } from './bill-jobs';
import { pruneExpired } from './prune-job';

/** The daily prune's KST minute of the day: 03:30, away from the bill jobs and busy hours. */
const PRUNE_MINUTE = 3 * 60 + 30;

/**
 * A job runs on a KST day of the month (`monthly`, claimed per KST month) or every KST day (`daily`, claimed
 * per KST date), at `minute` minutes after KST midnight.
 */
type JobSpec = {
  minute: number;
  cron: string;
  run: (tx: Tx, today: string, at: Date, context: JobContext) => Promise<object>;
} & (
  | { cadence: 'monthly'; day: number }
  | {
      cadence: 'daily';
      /**
       * What catch-up does with the days it missed (docs/rules/bills-and-grades.md#B19): run every one in order
       * (`replay`), only the latest (`latest`, when each run covers everything older), or record the past days
       * as skipped and run only today's (`today`, for a message whose moment has passed).
       */
      missed: 'replay' | 'latest' | 'today';
    }
);

/** What a job reads outside our database: the bank's statement (the reconciliation). */
export interface JobContext {
  bank: BankStatements;
}

/**
 * The daily reconciliation's KST minute (01:30): it reconciles the day before, once the day's debits, retries
 * and refunds are over and the bank has booked them, and before the 03:30 prune.
 */
const RECONCILIATION_MINUTE = 90;

/**
 * The settlement close's KST minute (00:30): each merchant's day before is closed once it is over; its payout
 * is made on the due business day by the background work (modules/settlements/payouts.ts).
 */
const SETTLEMENT_MINUTE = 30;

/** The KST day a closed month's statements are issued: the first day after the month. */
const STATEMENT_ISSUE_DAY = 1;

/** The cron expression of a daily job at `minute` minutes after KST midnight. */
const dailyAt = (minute: number) => `${minute % 60} ${Math.floor(minute / 60)} * * *`;

/**
 * The scheduled jobs: docs/rules/bills-and-grades.md#B1 (issue), #B9 and #B10, the prune (money-and-time.md#T8), the
 * reminders (notifications.md#N5), autopay's daily plan (bills-and-grades.md#B16; its debits run after the
 * plan commits, see `modules/autopay/autopay-job.ts`) and the reconciliation of the day before (#B20).
 */
export const JOBS = {
  'auto-extension': {
    cadence: 'monthly',
    day: BILL_RULES.autoExtensionDay,
    minute: 5,
    cron: `5 0 ${BILL_RULES.autoExtensionDay} * *`,
    run: autoExtend,
  },
  overdue: {
    cadence: 'monthly',
    day: BILL_RULES.overdueDay,
    minute: 5,
    cron: `5 0 ${BILL_RULES.overdueDay} * *`,
    run: markOverdue,
  },
  'statement-issue': {
    cadence: 'monthly',
    day: STATEMENT_ISSUE_DAY,
    minute: 5,
    cron: `5 0 ${STATEMENT_ISSUE_DAY} * *`,
    run: issueStatements,
  },
  prune: {
    cadence: 'daily',
    missed: 'latest',
    minute: PRUNE_MINUTE,
    cron: dailyAt(PRUNE_MINUTE),
    run: pruneExpired,
  },
  reminders: {
    cadence: 'daily',
    missed: 'today',
    minute: NOTIFICATION_RULES.reminderMinute,
    cron: dailyAt(NOTIFICATION_RULES.reminderMinute),
    run: remindDueStatements,
  },
  autopay: {
    cadence: 'daily',
    missed: 'replay',
    minute: AUTOPAY_RULES.debitMinute,
    cron: dailyAt(AUTOPAY_RULES.debitMinute),
    run: planAutopay,
  },
  reconciliation: {
    cadence: 'daily',
    missed: 'replay',
    minute: RECONCILIATION_MINUTE,
    cron: dailyAt(RECONCILIATION_MINUTE),
    run: (tx, today, at, { bank }) => reconcileDay(tx, bank, addDays(today, -1), at),
  },
  // Every run closes every day not yet closed (docs/rules/settlement.md#M3), so a missed day needs no replay.
  settlement: {
    cadence: 'daily',
    missed: 'latest',
    minute: SETTLEMENT_MINUTE,
    cron: dailyAt(SETTLEMENT_MINUTE),
    run: closeSettlements,
  },
} as const satisfies Record<string, JobSpec>;
export type JobName = keyof typeof JOBS;

export function isJobName(name: string): name is JobName {
  return Object.hasOwn(JOBS, name);
}

/** The `job_runs` period a run on the KST date `date` claims: its month, or the date itself for a daily job. */
export function periodOf(job: JobName, date: string): string {
  return JOBS[job].cadence === 'daily' ? date : date.slice(0, 7);
}

export interface RunOptions {
  /** When the run counts as having happened (catch-up passes the missed scheduled instant). */
  runAt?: Date;
  /** Claims the period without doing its work, recording why (a reminder whose day has passed). */
  skipped?: string;
  /** The bank a job reads; the sandbox bank on this database by default. */
  context?: JobContext;
  /** Runs in the run's transaction after its work (a console re-run's audit row). */
  alongside?: (tx: Tx, result: object) => Promise<void>;
}

export interface JobOutcome {
  job: JobName;
  period: string;
  /** false when this (job, period) had already run: nothing changed. */
  ran: boolean;
  result: object | null;
}

/**
 * Runs `job` for the KST date `today` (default: the clock's) once per cluster. The run row, the work and
 * the finish mark share one transaction: a second instance's insert waits on the primary key and then finds
 * the row, so it does nothing; a failed run rolls back its row and is retried at the next start-up.
 */
export async function runJob(
  db: Db,
  clock: Clock,
  job: JobName,
  today = kstDate(clock.now()),
  { runAt, skipped, context = { bank: createSandboxBank(db, clock) }, alongside }: RunOptions = {},
): Promise<JobOutcome> {
  // A job marks its period done: an impossible date must never reach that row.
  if (!isCalendarDate(today)) throw new Error(`not a calendar date: ${today}`);
  const period = periodOf(job, today);
  return withTx(db, async (tx) => {
    const at = runAt ?? clock.now();
    const claimed = await tx
      .insert(jobRuns)
      .values({ job, period, startedAt: at })
      .onConflictDoNothing()
      .returning({ job: jobRuns.job });
    if (claimed.length === 0) return { job, period, ran: false, result: null };
    const result = skipped ? { skipped } : await JOBS[job].run(tx, today, at, context);
    await tx
      .update(jobRuns)
      .set({ finishedAt: clock.now(), result })
      .where(and(eq(jobRuns.job, job), eq(jobRuns.period, period)));
    await alongside?.(tx, result);
    return { job, period, ran: true, result };
  });
}

/** The instant `job` is scheduled on the KST date `date` (00:05 KST for the bill jobs). */
export function scheduledAt(job: JobName, date: string): Date {
  return new Date(kstStartOfDay(date).getTime() + JOBS[job].minute * 60_000);
}

/**
 * Every (monthly job, date) scheduled at or before `now` from the month `fromMonth` on, oldest first. Within a
 * month the overdue run (1st) comes before the auto-extension run (16th), so a statement is always
 * auto-extended (16th of M+1) before its overdue run (1st of M+2) is judged, as if no run had been missed.
 */
export function scheduledRuns(fromMonth: string, now: Date): Array<{ job: JobName; date: string }> {
  const runs: Array<{ job: JobName; date: string }> = [];
  for (let month = fromMonth; month <= kstMonth(now); month = addMonths(month, 1)) {
    for (const job of Object.keys(JOBS) as JobName[]) {
      const spec = JOBS[job];
      if (spec.cadence !== 'monthly') continue;
      const date = dateInMonth(month, spec.day);
      if (scheduledAt(job, date).getTime() <= now.getTime()) runs.push({ job, date });
    }
  }
  return runs.sort((a, b) => a.date.localeCompare(b.date));
}

/** How far back catch-up replays a daily job's missed days (a longer outage replays its last days only). */
export const DAILY_CATCH_UP_DAYS = 35;

/**
 * The latest (daily job, date) scheduled at or before `now`: today's run once its minute has passed, else
 * yesterday's.
 */
export function latestDailyRuns(now: Date): Array<{ job: JobName; date: string }> {
  const today = kstDate(now);
  const yesterday = addDays(today, -1);
  return (Object.keys(JOBS) as JobName[])
    .filter((job) => JOBS[job].cadence === 'daily')
    .map((job) => ({ job, date: scheduledAt(job, today).getTime() <= now.getTime() ? today : yesterday }));
}

/**
 * Every missed (daily job, date) after the job's last recorded day, up to its latest scheduled day: every
 * day for a job that replays or records them, only the latest for one whose run covers everything older, and
 * only the latest on a database that never ran the job. At most `DAILY_CATCH_UP_DAYS` back.
 */
export function missedDailyRuns(
  now: Date,
  lastDone: ReadonlyMap<JobName, string>,
): Array<{ job: JobName; date: string }> {
  const runs: Array<{ job: JobName; date: string }> = [];
  for (const { job, date: latest } of latestDailyRuns(now)) {
    const spec = JOBS[job];
    const last = lastDone.get(job);
    if (spec.cadence !== 'daily' || spec.missed === 'latest' || !last) {
      runs.push({ job, date: latest });
      continue;
    }
    const floor = addDays(latest, -(DAILY_CATCH_UP_DAYS - 1));
    for (let date = last < floor ? floor : addDays(last, 1); date <= latest; date = addDays(date, 1)) {
      runs.push({ job, date });
    }
  }
  return runs;
}

/**
 * Runs every scheduled run missed while no instance was running, in the order of their scheduled instants, as
 * the days would have run them (docs/rules/bills-and-grades.md#B19): each missed month of the bill jobs (so a
 * downtime of months still extends each statement before judging it overdue) and each missed day of the daily
 * ones, so the 15th's autopay runs before the 16th's auto-extension and the 1st's overdue before that day's
 * reminders. `afterRun` follows each run that did its work (the scheduler debits after an autopay plan, so the
 * next day's extension sees what was paid). A reminder whose day has passed is recorded as skipped, not sent
 * late. It looks back to the month after the oldest statement (nothing can be due before), skips the periods
 * `job_runs` already holds, and stamps each run with its scheduled instant.
 */
export async function catchUp(
  db: Db,
  clock: Clock,
  afterRun?: (outcome: JobOutcome) => Promise<void>,
  context?: JobContext,
): Promise<JobOutcome[]> {
  // Instances starting together catch up one after another: the second then finds every run done, rather
  // than run the 16th's extension while the first is still debiting the 15th's plan.
  // The lock is a transaction's, held open on its own connection while the runs use others.
  return db.transaction(async (lock) => {
    await lock.execute(sql`select pg_advisory_xact_lock(${CATCH_UP_LOCK})`);
    return catchUpLocked(db, clock, afterRun, context);
  });
}

/** A fixed key for the cluster-wide catch-up advisory lock. */
const CATCH_UP_LOCK = 7_420_252;

async function catchUpLocked(
  db: Db,
  clock: Clock,
  afterRun?: (outcome: JobOutcome) => Promise<void>,
  context?: JobContext,
): Promise<JobOutcome[]> {
  const now = clock.now();
  const today = kstDate(now);
  const [oldest] = await db.select({ month: min(statements.month) }).from(statements);
  const fromMonth = oldest?.month ? addMonths(oldest.month, 1) : kstMonth(now);
  const recorded = await db.select({ job: jobRuns.job, period: jobRuns.period }).from(jobRuns);
  const done = new Set(recorded.map((r) => `${r.job}:${r.period}`));
  const lastDone = new Map<JobName, string>();
  for (const { job, period } of recorded) {
    if (isJobName(job) && JOBS[job].cadence === 'daily' && period > (lastDone.get(job) ?? ''))
      lastDone.set(job, period);
  }
  const timeline = [...scheduledRuns(fromMonth, now), ...missedDailyRuns(now, lastDone)].sort(
    (a, b) => scheduledAt(a.job, a.date).getTime() - scheduledAt(b.job, b.date).getTime(),
  );
  const outcomes: JobOutcome[] = [];
  for (const { job, date } of timeline) {
    if (done.has(`${job}:${periodOf(job, date)}`)) continue;
    const spec = JOBS[job];
    const late = spec.cadence === 'daily' && spec.missed === 'today' && date < today;
    const outcome = await runJob(db, clock, job, date, {
      runAt: scheduledAt(job, date),
      skipped: late ? 'late' : undefined,
      context,
    });
    outcomes.push(outcome);
    if (outcome.ran && !late) await afterRun?.(outcome);
  }
  return outcomes;
}
