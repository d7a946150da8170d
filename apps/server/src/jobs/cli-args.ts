import { parseArgs } from 'node:util';
import { isCalendarDate } from '@ohgood/contract/kst';
import { isJobName, JOBS, type JobName } from './runner';

export interface JobCommand {
  job: JobName;
  /** The KST run date; undefined means today. */
  date: string | undefined;
}

/**
 * Reads `<job> [--date YYYY-MM-DD] [--force]`. Refuses an unknown job, a date that is not a real calendar
 * date ('2026-09-99' would otherwise mark a month done) and, without --force, a date after `today` (KST).
 */
export function parseJobArgs(args: string[], today: string): JobCommand {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { date: { type: 'string' }, force: { type: 'boolean' } },
  });
  const job = positionals[0] ?? '';
  if (!isJobName(job)) {
    throw new Error(`usage: npm run jobs -- <${Object.keys(JOBS).join('|')}> [--date YYYY-MM-DD] [--force]`);
  }
  const date = values.date;
  if (date !== undefined && !isCalendarDate(date)) {
    throw new Error(`--date ${date} is not a calendar date; write YYYY-MM-DD (a KST calendar date)`);
  }
  // A run for a future date would treat statements as late before their due date.
  if (date !== undefined && date > today && !values.force) {
    throw new Error(`--date ${date} is in the future (KST); add --force only on a test copy of the data`);
  }
  return { job, date };
}
