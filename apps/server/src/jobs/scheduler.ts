import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import type { AppMetrics } from '../http/metrics';
import type { Clock } from '../lib/clock';
import { type ClusterWork, type InstanceWork, REGISTRY, type RegisteredJob, type Schedule } from './registry';
import { instanceRun } from './run-records';
import { catchUp, type JobContext, type JobName, type JobOutcome } from './runner';

/** setTimeout's longest delay; a later run is waited for in steps of this. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Work that runs after its job commits and between runs: autopay's debits (after the daily plan, and every few
 * minutes for retries a bank asked for) and pushes held back by quiet hours. Each claims its own rows with
 * `FOR UPDATE SKIP LOCKED`, so several instances share it without doing anything twice.
 */
export interface BackgroundWork {
  autopay(): Promise<object>;
  /** Settlement payouts that are due (modules/settlements/payouts.ts), retried until the bank credits them. */
  payouts(): Promise<object>;
  pushes(): Promise<number>;
  /** Merchant webhook deliveries due now: retries after their back-off, and any a wake-up missed. */
  webhooks(): Promise<number>;
  /** The media sweep (modules/media/sweep.ts): owed deletes, then objects no row refers to. */
  mediaSweep(): Promise<object>;
}

/**
 * A run that raised a staff alert (a day that does not reconcile) also says so at warn level, so the log's
 * alerting sees it as the console's home does (ADR 0200).
 */
function warnStaff(log: FastifyBaseLogger, outcome: JobOutcome) {
  const alert = outcome.result && 'alert' in outcome.result ? outcome.result.alert : undefined;
  if (typeof alert === 'string') log.warn({ job: outcome.job, period: outcome.period, result: outcome.result }, alert);
}

/**
 * Calls `task` at each instant of `schedule` on the app's clock, one after another. Croner only computes the
 * instants (KST); the timers are ours, on the app clock: with CLOCK_START (a shifted clock for e2e and
 * demos) a boundary such as the 16th 00:05 KST passes while the server runs, as it would in production.
 * The first instant is the one after `from`: one that passed since then is run at once. Returns a stop function.
 */
function onSchedule(
  clock: Clock,
  schedule: Schedule,
  task: (due: Date) => Promise<void>,
  from = clock.now(),
): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const pattern = 'cron' in schedule ? new Cron(schedule.cron, { timezone: 'Asia/Seoul', paused: true }) : undefined;
  const nextAfter = (now: Date) =>
    pattern ? pattern.nextRun(now) : new Date(now.getTime() + ('everyMs' in schedule ? schedule.everyMs : 0));
  const arm = (due: Date | null) => {
    if (stopped || !due) return;
    const wait = due.getTime() - clock.now().getTime();
    timer = setTimeout(
      async () => {
        if (stopped) return;
        if (wait > MAX_TIMER_MS) return arm(due);
        await task(due);
        arm(nextAfter(clock.now()));
      },
      Math.max(0, Math.min(wait, MAX_TIMER_MS)),
    );
    timer.unref();
  };
  arm(nextAfter(from));
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * Starts the cluster's jobs (the registry's `cluster` rows) after catching up missed runs: this instance's
 * worker on the job queue, and a timer per job that adds each period to the queue at its due instant on the
 * app's clock. Several instances may run it: the queue's job key lets one of them take each period, and the
 * calendar jobs' `job_runs` key lets exactly one do it. Returns a stop function.
 */
export async function startScheduler(
  database: Pick<Database, 'db' | 'pool'>,
  clock: Clock,
  log: FastifyBaseLogger,
  work: BackgroundWork,
  metrics?: AppMetrics,
  /** What jobs read outside the database (the bank's statement); the sandbox bank by default. */
  context?: JobContext,
  jobs: readonly RegisteredJob[] = REGISTRY,
): Promise<() => Promise<void>> {
  const background = async () => {
    try {
      await work.autopay();
      await work.payouts();
      await work.pushes();
      await work.webhooks();
    } catch (error) {
      log.error({ err: error }, 'background work failed; it runs again in a few minutes');
    }
  };
  const clusterWork: ClusterWork = {
    db: database.db,
    clock,
    context,
    autopayDebits: work.autopay,
    payouts: work.payouts,
    pushes: work.pushes,
    webhooks: work.webhooks,
    async mediaSweep() {
      const result = await work.mediaSweep();
      log.info(result, 'media sweep finished');
      return result;
    },
    reported(job, seconds, outcome) {
      if ('error' in outcome) {
        log.error({ err: outcome.error, job }, 'scheduled job failed; the queue tries it again shortly');
        metrics?.jobRun(job, seconds, 'failed');
        return;
      }
      log.info(outcome, 'scheduled job finished');
      warnStaff(log, outcome);
      metrics?.jobRun(job, seconds, outcome.ran ? 'ran' : 'skipped');
    },
  };
  // The worker starts while the catch-up runs (their start-up costs overlap); a failed start fails this one.
  // Its module (the queue library) loads only here: an instance without the cluster's jobs never needs it.
  const starting = import('./queue').then(({ startJobQueue }) => startJobQueue(database.pool, clusterWork, log, jobs));
  starting.catch(() => undefined);
  // The timers count from before the catch-up: an instant that passes while it runs (a slow start) is queued at
  // once, not a whole period later; its period's key makes a run the catch-up already did a no-op.
  const catchUpFrom = clock.now();
  try {
    const caughtUpAt = performance.now();
    // A missed day's debits run right after its plan, before the next missed run (an extension) judges the bill.
    const debitAfterPlan = async (outcome: { job: JobName }) => {
      if (outcome.job === 'autopay' || outcome.job === 'settlement') await background();
    };
    for (const outcome of await catchUp(database.db, clock, debitAfterPlan, context)) {
      if (outcome.ran) log.info(outcome, 'caught up a missed job run');
      warnStaff(log, outcome);
      metrics?.jobRun(outcome.job, (performance.now() - caughtUpAt) / 1000, outcome.ran ? 'ran' : 'skipped');
    }
    await background();
  } catch (error) {
    await starting.then((queue) => queue.stop()).catch(() => undefined);
    throw error;
  }
  const stops = jobs.flatMap((job) =>
    job.scope === 'cluster'
      ? [
          onSchedule(
            clock,
            job.schedule,
            (due) =>
              starting
                .then((queue) => queue.add(job, due))
                .catch((error: unknown) => {
                  log.error({ err: error, job: job.name }, 'could not queue a job run; the catch-up runs it later');
                }),
            catchUpFrom,
          ),
        ]
      : [],
  );
  const queue = await starting.catch((error: unknown) => {
    for (const stop of stops) stop();
    throw error;
  });
  return async () => {
    for (const stop of stops) stop();
    await queue.stop();
  };
}

/**
 * Starts the registry's `instance` rows on this instance (its caches and in-process queues), on the app's
 * clock. A failed round is logged and the next one runs as scheduled. Returns a stop function.
 */
export function startInstanceWork(
  clock: Clock,
  log: FastifyBaseLogger,
  work: InstanceWork,
  jobs: readonly RegisteredJob[] = REGISTRY,
): () => void {
  const stops = jobs.flatMap((job) =>
    job.scope === 'instance'
      ? [
          onSchedule(clock, job.schedule, () =>
            instanceRun(clock, job.name, () => job.run(work)).then(
              () => undefined,
              (error: unknown) => log.warn({ err: error, job: job.name }, 'background work failed; it runs again'),
            ),
          ),
        ]
      : [],
  );
  return () => {
    for (const stop of stops) stop();
  };
}
