import { isNotNull, max } from 'drizzle-orm';
import { jobRuns } from '../db/schema';
import type { Executor } from '../db/tx';

/**
 * When each scheduled job last finished a run, cluster-wide (`job_runs`, one row per job and period):
 * `/metrics` turns it into the age an alert compares with the job's schedule (docs/deploy.md). A run that
 * failed rolled its row back, so only finished runs count.
 */
export async function lastFinishedRuns(db: Executor): Promise<Array<{ job: string; finishedAt: Date }>> {
  const rows = await db
    .select({ job: jobRuns.job, finishedAt: max(jobRuns.finishedAt) })
    .from(jobRuns)
    .where(isNotNull(jobRuns.finishedAt))
    .groupBy(jobRuns.job);
  return rows.flatMap((row) => (row.finishedAt ? [{ job: row.job, finishedAt: row.finishedAt }] : []));
}
