import { kstDate } from '@ohgood/contract/kst';
import { openCliDatabase, runCli } from '../db/cli-database';
import { systemClock } from '../lib/clock';
import { parseJobArgs } from './cli-args';
import { runJob } from './runner';

/**
 * `npm run jobs -- <job> [--date YYYY-MM-DD]`: runs one scheduled job by hand (operators), e.g. to re-run a
 * failed run. A (job, period) that already ran is not run again.
 */
runCli(async () => {
  const { job, date } = parseJobArgs(process.argv.slice(2), kstDate(systemClock.now()));
  const database = await openCliDatabase();
  try {
    const outcome = await runJob(database.db, systemClock, job, date);
    console.log(
      outcome.ran
        ? `${job} for ${outcome.period}: ${JSON.stringify(outcome.result)}`
        : `${job} for ${outcome.period} already ran; nothing changed`,
    );
  } finally {
    await database.close();
  }
});
