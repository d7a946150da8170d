import { resolve } from 'node:path';

/** Where the app keeps its files (and the embedded PostgreSQL its cluster) when `DATA_DIR` is unset. */
export const DEFAULT_DATA_DIR = './data';

/**
 * The data directory of the embedded PostgreSQL, or undefined when `DATABASE_URL` names another server. Read
 * before the full configuration, whose schema library takes ~50 ms to load: the embedded server is spawned
 * first and starts meanwhile (ADR 0153). Empty variables count as unset, as in `loadConfig`, which checks
 * both values again.
 */
export function embeddedDataDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.DATABASE_URL) return undefined;
  return resolve(env.DATA_DIR || DEFAULT_DATA_DIR);
}
