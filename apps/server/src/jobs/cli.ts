import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { kstDate } from '@ohgood/contract/kst';
import { openDatabase } from '../db/client';
import { systemClock } from '../lib/clock';
import { loadConfig } from '../lib/config';
import { safeErrorMessage } from '../lib/safe-error';
import { parseJobArgs } from './cli-args';
import { runJob } from './runner';

/**
 * `npm run jobs -- <job> [--date YYYY-MM-DD]`: runs one scheduled job by hand (operators), e.g. to re-run a
 * failed run. A (job, period) that already ran is not run again.
 */
async function main(): Promise<void> {
  const { job, date } = parseJobArgs(process.argv.slice(2), kstDate(systemClock.now()));
  const config = loadConfig();
  // Same default as `npm start`: the repository's ./data, whatever directory npm runs this script in.
  const root = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
  const dataDir = process.env.DATA_DIR ? resolve(config.DATA_DIR) : join(root, 'data');
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir });
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
}

main().catch((error: unknown) => {
  // Never the raw error: a failed query's message carries its parameters.
  console.error(error instanceof Error ? safeErrorMessage(error.message) : 'start-up failed');
  process.exit(1);
});
