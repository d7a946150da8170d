import { Logger, runMigrations } from 'graphile-worker';
import type pg from 'pg';

/**
 * The job queue's own schema (graphile-worker's tables and functions, ADR 0216). It is installed and upgraded
 * by the library's migrator, as the owner, at migrate time: the runtime role has no DDL, so the worker it
 * runs only reads that the schema is current. Installing it from instances starting together is safe: the
 * library detects a concurrent migration and carries on.
 */
export const JOB_QUEUE_SCHEMA = 'graphile_worker';

/** The library's migrations log at debug level only; our start-up says nothing about them. */
const quiet = new Logger(() => () => undefined);

/** Installs or upgrades the queue's schema on the owner's pool (one connection is enough). */
export async function migrateJobQueue(ownerPool: pg.Pool): Promise<void> {
  await runMigrations({ pgPool: ownerPool, schema: JOB_QUEUE_SCHEMA, logger: quiet });
}
