import type { FastifyBaseLogger } from 'fastify';
import { Logger, type LogLevel, run, type Task } from 'graphile-worker';
import type pg from 'pg';
import { JOB_QUEUE_SCHEMA } from '../db/job-queue-schema';
import { type ClusterWork, duePeriod, periodKey, type RegisteredJob } from './registry';
import { recordedRun } from './run-records';
import { isJobName } from './runner';

/**
 * The cluster's job queue (graphile-worker, ADR 0216): each registered cluster job is one of its tasks. A
 * period's run is added under the key `<job>:<period>`, so the adds of every instance at the same due instant
 * collapse into one waiting job that one instance takes. A failed run is retried with the library's
 * exponential back-off. The key does not block a job locked by a worker that died (the library would hold
 * it for hours): an add then makes a new job. So the queue runs a period at least once, and a calendar job's
 * `job_runs` row (claimed in the run's transaction) makes it exactly once; the other cluster jobs claim their
 * rows with `FOR UPDATE SKIP LOCKED` and may run twice harmlessly.
 */
export interface JobQueue {
  /** Adds one period of `job`, due at `due` (an instant on the app's clock), to run as soon as a worker is free. */
  add(job: RegisteredJob, due: Date): Promise<void>;
  /** Stops taking jobs; a job in hand finishes first. */
  stop(): Promise<void>;
}

/** Attempts per period before the queue gives up on it (back-off e^n s: about 4 minutes in all). */
const MAX_ATTEMPTS = 6;
/** Jobs one instance runs side by side (a long media sweep does not hold up the pushes). */
const CONCURRENCY = 2;
/** How often the worker also looks for due jobs: new ones wake it at once (LISTEN), this covers a lost wake. */
const POLL_MS = 2_000;

/** The library's log lines go to the app's log; its chatter (info) at debug level. */
function queueLogger(log: FastifyBaseLogger): Logger {
  const level = (l: LogLevel) => (l === 'error' ? 'error' : l === 'warning' ? 'warn' : 'debug');
  return new Logger((scope) => (l, message, meta) => log[level(l)]?.({ queue: scope, ...meta }, message));
}

/** Starts this instance's worker on the app's pool (the runtime role) for the cluster jobs of `jobs`. */
export async function startJobQueue(
  pool: pg.Pool,
  work: ClusterWork,
  log: FastifyBaseLogger,
  jobs: readonly RegisteredJob[],
): Promise<JobQueue> {
  const taskList: Record<string, Task> = {};
  for (const job of jobs) {
    if (job.scope !== 'cluster') continue;
    taskList[job.name] = async (payload) => {
      const due = new Date((payload as { due: string }).due);
      // A calendar job's run records its period itself (its claim); a recurring job's run is recorded here.
      if (isJobName(job.name)) await job.run(work, due);
      else await recordedRun(work.db, work.clock, job.name, duePeriod(job, due), () => job.run(work, due));
    };
  }
  const runner = await run({
    // The pool's releases act once per checkout (db/client.ts): after a database restart the library's
    // LISTEN connection can be released twice, and a second release would otherwise end the process.
    pgPool: pool,
    schema: JOB_QUEUE_SCHEMA,
    taskList,
    // No crontab of the library's (it would run on the machine's time): our schedules add the jobs.
    parsedCronItems: [],
    concurrency: CONCURRENCY,
    pollInterval: POLL_MS,
    noHandleSignals: true,
    logger: queueLogger(log),
  });
  return {
    async add(job, due) {
      await runner.addJob(
        job.name,
        { due: due.toISOString() },
        { jobKey: periodKey(job, due), maxAttempts: MAX_ATTEMPTS },
      );
    },
    stop: () => runner.stop(),
  };
}
