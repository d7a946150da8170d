import { BILL_RULES } from '@ohgood/contract/bill-rules';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobRuns } from '../db/schema';
import { type Tx, withTx } from '../db/tx';
import { type Clock, kstDate, kstStartOfDay } from '../lib/clock';
import { autoExtend, markOverdue } from './bill-jobs';

/** The scheduled jobs (domain §6.4): the KST day of month and minute they run. */
export const JOBS = {
  'auto-extension': {
    day: BILL_RULES.autoExtensionDay,
    minute: 5,
    cron: `5 0 ${BILL_RULES.autoExtensionDay} * *`,
    run: autoExtend,
  },
  overdue: { day: BILL_RULES.overdueDay, minute: 5, cron: `5 0 ${BILL_RULES.overdueDay} * *`, run: markOverdue },
} as const satisfies Record<
  string,
  { day: number; minute: number; cron: string; run: (tx: Tx, today: string, at: Date) => Promise<object> }
>;
export type JobName = keyof typeof JOBS;

export function isJobName(name: string): name is JobName {
  return Object.hasOwn(JOBS, name);
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
export async function runJob(db: Db, clock: Clock, job: JobName, today = kstDate(clock.now())): Promise<JobOutcome> {
  const period = today.slice(0, 7);
  return withTx(db, async (tx) => {
    const at = clock.now();
    const claimed = await tx
      .insert(jobRuns)
      .values({ job, period, startedAt: at })
      .onConflictDoNothing()
      .returning({ job: jobRuns.job });
    if (claimed.length === 0) return { job, period, ran: false, result: null };
    const result = await JOBS[job].run(tx, today, at);
    await tx
      .update(jobRuns)
      .set({ finishedAt: clock.now(), result })
      .where(and(eq(jobRuns.job, job), eq(jobRuns.period, period)));
    return { job, period, ran: true, result };
  });
}

/** The KST date of the latest scheduled time of `job` at or before `now`. */
export function lastScheduledDate(job: JobName, now: Date): string {
  const { day, minute } = JOBS[job];
  const today = kstDate(now);
  const thisMonth = `${today.slice(0, 7)}-${String(day).padStart(2, '0')}`;
  if (kstStartOfDay(thisMonth).getTime() + minute * 60_000 <= now.getTime()) return thisMonth;
  const [y, m] = today.split('-').map(Number) as [number, number];
  const prev = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
  return `${prev}-${String(day).padStart(2, '0')}`;
}

/** Runs, oldest first, every job whose latest scheduled time passed while no instance was running. */
export async function catchUp(db: Db, clock: Clock): Promise<JobOutcome[]> {
  const due = (Object.keys(JOBS) as JobName[])
    .map((job) => ({ job, date: lastScheduledDate(job, clock.now()) }))
    .sort((a, b) => a.date.localeCompare(b.date));
  const outcomes: JobOutcome[] = [];
  for (const { job, date } of due) outcomes.push(await runJob(db, clock, job, date));
  return outcomes;
}
