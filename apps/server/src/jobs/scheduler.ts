import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { Clock } from '../lib/clock';
import { catchUp, JOBS, type JobName, runJob } from './runner';

/** setTimeout's longest delay; a later run is waited for in steps of this. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Starts the in-process scheduler (KST) after catching up missed runs. Several instances may run it: the
 * job_runs key lets exactly one of them do each run. Returns a stop function.
 *
 * Each next run is computed from the app's clock, not from the machine's: with CLOCK_START (a shifted
 * clock for e2e and demos) a boundary such as the 16th 00:05 KST passes while the server runs, as it would
 * in production.
 */
export async function startScheduler(db: Db, clock: Clock, log: FastifyBaseLogger): Promise<() => void> {
  for (const outcome of await catchUp(db, clock)) {
    if (outcome.ran) log.info(outcome, 'caught up a missed job run');
  }
  let stopped = false;
  const timers = new Map<JobName, NodeJS.Timeout>();

  const run = async (job: JobName) => {
    try {
      const outcome = await runJob(db, clock, job);
      log.info(outcome, 'scheduled job finished');
    } catch (error) {
      log.error({ err: error, job }, 'scheduled job failed; it runs again at the next start-up');
    }
  };

  const schedule = (job: JobName, pattern: Cron, due?: Date) => {
    if (stopped) return;
    const next = due ?? pattern.nextRun(clock.now());
    if (!next) return;
    const wait = next.getTime() - clock.now().getTime();
    const timer = setTimeout(
      async () => {
        if (stopped) return;
        if (wait > MAX_TIMER_MS) return schedule(job, pattern, next);
        await run(job);
        schedule(job, pattern);
      },
      Math.max(0, Math.min(wait, MAX_TIMER_MS)),
    );
    timer.unref();
    timers.set(job, timer);
  };

  for (const job of Object.keys(JOBS) as JobName[]) {
    // Croner only computes the instants (KST); the timers are ours, on the app clock.
    schedule(job, new Cron(JOBS[job].cron, { timezone: 'Asia/Seoul', paused: true }));
  }
  return () => {
    stopped = true;
    for (const timer of timers.values()) clearTimeout(timer);
  };
}
