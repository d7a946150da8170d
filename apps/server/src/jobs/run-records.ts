import { kstIso } from '@ohgood/contract/kst';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobRuns } from '../db/schema';
import type { Clock } from '../lib/clock';
import { safeErrorMessage } from '../lib/safe-error';

/*
 * What the registry's rows other than the calendar jobs did, for the console's jobs page and `/metrics`
 * (docs/rules/operations.md#O22). A calendar job's `job_runs` row is its period's claim; a recurring cluster
 * job (push sending, payouts, the media sweep, catch-up …) claims nothing there (its rows are claimed one by
 * one), so its runs are only recorded: one `job_runs` row per due minute, the latest few kept. An instance
 * job's runs are its own process's, kept in memory.
 */

/** How many of a recurring job's latest runs are kept (cluster-wide in `job_runs`; per process in memory). */
export const RUNS_KEPT = 5;

/** A run's result as a JSON object: a count of what it handled, a list's length, or the object itself. */
export function resultOf(value: unknown): Record<string, unknown> | null {
  if (typeof value === 'number') return { handled: value };
  if (Array.isArray(value)) return { runs: value.length };
  if (value && typeof value === 'object') return value as Record<string, unknown>;
  return null;
}

const errorOf = (error: unknown) => ({
  error: safeErrorMessage(error instanceof Error ? error.message : String(error)),
});

/**
 * Runs one due instant (`period`, its minute) of a recurring cluster job and records it: started, then finished
 * with its result, or left unfinished with its error. The queue may run a period twice (at least once): the
 * second run overwrites the first's record. Older records of the job beyond `RUNS_KEPT` are dropped.
 */
export async function recordedRun<T>(db: Db, clock: Clock, job: string, period: string, run: () => Promise<T>) {
  const startedAt = clock.now();
  const where = and(eq(jobRuns.job, job), eq(jobRuns.period, period));
  await db
    .insert(jobRuns)
    .values({ job, period, startedAt })
    .onConflictDoUpdate({ target: [jobRuns.job, jobRuns.period], set: { startedAt, finishedAt: null, result: null } });
  try {
    const value = await run();
    await db
      .update(jobRuns)
      .set({ finishedAt: clock.now(), result: resultOf(value) })
      .where(where);
    return value;
  } catch (error) {
    await db
      .update(jobRuns)
      .set({ result: errorOf(error) })
      .where(where);
    throw error;
  } finally {
    await db.execute(sql`delete from ${jobRuns} where ${jobRuns.job} = ${job} and ${jobRuns.period} < (
      select r.period from ${jobRuns} r where r.job = ${job} order by r.period desc offset ${RUNS_KEPT - 1} limit 1)`);
  }
}

/** One run of an instance job in this process. */
export interface InstanceRun {
  startedAt: Date;
  finishedAt: Date | null;
  error: string | null;
}

/** This process's latest runs of each instance job, newest first (the registry's `instance` rows). */
export const instanceRuns = new Map<string, InstanceRun[]>();

/** Runs one round of an instance job and keeps it in `instanceRuns`. */
export async function instanceRun(clock: Clock, job: string, run: () => Promise<unknown>): Promise<void> {
  const record: InstanceRun = { startedAt: clock.now(), finishedAt: null, error: null };
  instanceRuns.set(job, [record, ...(instanceRuns.get(job) ?? [])].slice(0, RUNS_KEPT));
  try {
    await run();
    record.finishedAt = clock.now();
  } catch (error) {
    record.error = errorOf(error).error;
    throw error;
  }
}

/** An instance run as the jobs page shows it. */
export const instanceRunRow = (run: InstanceRun) => ({
  period: kstIso(run.startedAt),
  startedAt: kstIso(run.startedAt),
  finishedAt: run.finishedAt ? kstIso(run.finishedAt) : null,
  outcome: run.finishedAt ? ('done' as const) : run.error ? ('failed' as const) : ('running' as const),
  result: run.error ? { error: run.error } : null,
});
