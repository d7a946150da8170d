import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openDatabase } from '../db/client';
import { kstDate, systemClock } from '../lib/clock';
import { loadConfig } from '../lib/config';
import { isJobName, JOBS, runJob } from './runner';

/**
 * `npm run jobs -- <job> [--date YYYY-MM-DD]`: runs one scheduled job by hand (operators), e.g. to re-run a
 * failed run. A (job, month) that already ran is not run again.
 */
async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { date: { type: 'string' }, force: { type: 'boolean' } },
  });
  const job = positionals[0] ?? '';
  if (!isJobName(job)) {
    throw new Error(`usage: npm run jobs -- <${Object.keys(JOBS).join('|')}> [--date YYYY-MM-DD] [--force]`);
  }
  if (values.date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(values.date)) {
    throw new Error('--date must be YYYY-MM-DD (a KST calendar date)');
  }
  // A run for a future date would treat statements as late before their due date.
  if (values.date !== undefined && values.date > kstDate(systemClock.now()) && !values.force) {
    throw new Error(`--date ${values.date} is in the future (KST); add --force only on a test copy of the data`);
  }
  const config = loadConfig();
  // Same default as `npm start`: the repository's ./data, whatever directory npm runs this script in.
  const root = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
  const dataDir = process.env.DATA_DIR ? resolve(config.DATA_DIR) : join(root, 'data');
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir });
  try {
    const outcome = await runJob(database.db, systemClock, job, values.date);
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
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
