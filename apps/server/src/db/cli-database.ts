import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../lib/config';
import { safeErrorMessage } from '../lib/safe-error';
import { type Database, openDatabase } from './client';

/**
 * The database an operator's command works on (`npm run jobs`, `npm run bank`): `DATABASE_URL`, else the
 * embedded one under the same data directory as `npm start` (the running server's, or started for the run).
 */
export async function openCliDatabase(): Promise<Database> {
  const config = loadConfig();
  // Same default as `npm start`: the repository's ./data, whatever directory npm runs this script in.
  const root = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
  const dataDir = process.env.DATA_DIR ? resolve(config.DATA_DIR) : join(root, 'data');
  return openDatabase({
    databaseUrl: config.DATABASE_URL,
    migrationDatabaseUrl: config.MIGRATION_DATABASE_URL,
    dataDir,
  });
}

/** Runs a command's main and exits 1 on failure, never printing a raw error (a query's carries parameters). */
export function runCli(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? safeErrorMessage(error.message) : 'start-up failed');
    process.exit(1);
  });
}
