import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { AppMetrics } from '../http/metrics';
import type { Clock } from '../lib/clock';
import { catchUp, JOBS, type JobContext, type JobName, type JobOutcome, runJob } from './runner';

/** setTimeout's longest delay; a later run is waited for in steps of this. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Work that runs after its job commits and between runs: autopay's debits (after the daily plan, and every few
 * minutes for retries a bank asked for) and pushes held back by quiet hours. Each claims its own rows with
 * `FOR UPDATE SKIP LOCKED`, so several instances share it without doing anything twice.
 */
export interface BackgroundWork {
  autopay(): Promise<object>;
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

/** How often the background work looks for due rows (one cheap indexed query each). */
const BACKGROUND_CRON = '*/5 * * * *';
/** The media sweep lists the swept prefixes of the store: hourly, off the hour's busy minutes. */
const MEDIA_SWEEP_CRON = '41 * * * *';

/**
 * Starts the in-process scheduler (KST) after catching up missed runs. Several instances may run it: the
 * job_runs key lets exactly one of them do each run. Returns a stop function.
 *
 * Each next run is computed from the app's clock, not from the machine's: with CLOCK_START (a shifted
 * clock for e2e and demos) a boundary such as the 16th 00:05 KST passes while the server runs, as it would
 * in production.
 */
export async function startScheduler(
  db: Db,
  clock: Clock,
  log: FastifyBaseLogger,
  work: BackgroundWork,
  metrics?: AppMetrics,
  /** What jobs read outside the database (the bank's statement); the sandbox bank by default. */
  context?: JobContext,
): Promise<() => void> {
  const background = async () => {
    try {
      await work.autopay();
      await work.pushes();
      await work.webhooks();
    } catch (error) {
      log.error({ err: error }, 'background work failed; it runs again in a few minutes');
    }
  };
  const caughtUpAt = performance.now();
  // A missed day's debits run right after its plan, before the next missed run (an extension) judges the bill.
  const debitAfterPlan = async (outcome: { job: JobName }) => {
    if (outcome.job === 'autopay') await background();
  };
  for (const outcome of await catchUp(db, clock, debitAfterPlan, context)) {
    if (outcome.ran) log.info(outcome, 'caught up a missed job run');
    warnStaff(log, outcome);
    metrics?.jobRun(outcome.job, (performance.now() - caughtUpAt) / 1000, outcome.ran ? 'ran' : 'skipped');
  }
  await background();
  const mediaSweep = async () => {
    try {
      log.info(await work.mediaSweep(), 'media sweep finished');
    } catch (error) {
      log.error({ err: error }, 'media sweep failed; it runs again within the hour');
    }
  };
  let stopped = false;
  const timers = new Map<string, NodeJS.Timeout>();

  const run = async (job: JobName) => {
    const startedAt = performance.now();
    const seconds = () => (performance.now() - startedAt) / 1000;
    try {
      const outcome = await runJob(db, clock, job, undefined, { context });
      log.info(outcome, 'scheduled job finished');
      warnStaff(log, outcome);
      metrics?.jobRun(job, seconds(), outcome.ran ? 'ran' : 'skipped');
      if (job === 'autopay') await background();
    } catch (error) {
      log.error({ err: error, job }, 'scheduled job failed; it runs again at the next start-up');
      metrics?.jobRun(job, seconds(), 'failed');
    }
  };

  const schedule = (name: string, pattern: Cron, task: () => Promise<void>, due?: Date) => {
    if (stopped) return;
    const next = due ?? pattern.nextRun(clock.now());
    if (!next) return;
    const wait = next.getTime() - clock.now().getTime();
    const timer = setTimeout(
      async () => {
        if (stopped) return;
        if (wait > MAX_TIMER_MS) return schedule(name, pattern, task, next);
        await task();
        schedule(name, pattern, task);
      },
      Math.max(0, Math.min(wait, MAX_TIMER_MS)),
    );
    timer.unref();
    timers.set(name, timer);
  };

  // Croner only computes the instants (KST); the timers are ours, on the app clock.
  const kst = (pattern: string) => new Cron(pattern, { timezone: 'Asia/Seoul', paused: true });
  for (const job of Object.keys(JOBS) as JobName[]) schedule(job, kst(JOBS[job].cron), () => run(job));
  schedule('background', kst(BACKGROUND_CRON), background);
  schedule('media-sweep', kst(MEDIA_SWEEP_CRON), mediaSweep);
  return () => {
    stopped = true;
    for (const timer of timers.values()) clearTimeout(timer);
  };
}
