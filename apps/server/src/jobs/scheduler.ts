import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { AppMetrics } from '../http/metrics';
import type { Clock } from '../lib/clock';
import { catchUp, JOBS, type JobName, runJob } from './runner';

/**
 * Work that runs after its job commits and between runs: autopay's debits (after the daily plan, and every few
 * minutes for retries a bank asked for) and pushes held back by quiet hours. Each claims its own rows with
 * `FOR UPDATE SKIP LOCKED`, so several instances share it without doing anything twice.
 */
export interface BackgroundWork {
  autopay(): Promise<object>;
  pushes(): Promise<number>;
}

/** How often the background work looks for due rows (one cheap indexed query each). */
const BACKGROUND_CRON = '*/5 * * * *';

/**
 * Starts the in-process scheduler (KST) after catching up missed runs. Several instances may run it: the
 * job_runs key lets exactly one of them do each run. Returns a stop function.
 */
export async function startScheduler(
  db: Db,
  clock: Clock,
  log: FastifyBaseLogger,
  work: BackgroundWork,
  metrics?: AppMetrics,
): Promise<() => void> {
  const caughtUpAt = performance.now();
  for (const outcome of await catchUp(db, clock)) {
    if (outcome.ran) log.info(outcome, 'caught up a missed job run');
    metrics?.jobRun(outcome.job, (performance.now() - caughtUpAt) / 1000, outcome.ran ? 'ran' : 'skipped');
  }
  const background = async () => {
    try {
      await work.autopay();
      await work.pushes();
    } catch (error) {
      log.error({ err: error }, 'background work failed; it runs again in a few minutes');
    }
  };
  await background();
  const crons = (Object.keys(JOBS) as JobName[]).map(
    (job) =>
      new Cron(JOBS[job].cron, { timezone: 'Asia/Seoul', protect: true, name: `ohgood-${job}` }, async () => {
        const startedAt = performance.now();
        const seconds = () => (performance.now() - startedAt) / 1000;
        try {
          const outcome = await runJob(db, clock, job);
          log.info(outcome, 'scheduled job finished');
          metrics?.jobRun(job, seconds(), outcome.ran ? 'ran' : 'skipped');
          if (job === 'autopay') await background();
        } catch (error) {
          log.error({ err: error, job }, 'scheduled job failed; it runs again at the next start-up');
          metrics?.jobRun(job, seconds(), 'failed');
        }
      }),
  );
  crons.push(new Cron(BACKGROUND_CRON, { protect: true, name: 'ohgood-background' }, background));
  return () => {
    for (const cron of crons) cron.stop();
  };
}
