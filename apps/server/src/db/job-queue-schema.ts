import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type pg from 'pg';

/**
 * The job queue's own schema (graphile-worker's tables and functions, ADR 0216). It is installed and upgraded
 * by the library's migrator, as the owner, at migrate time: the runtime role has no DDL, so the worker it
 * runs only reads that the schema is current. Installing it from instances starting together is safe: the
 * library detects a concurrent migration and carries on.
 */
export const JOB_QUEUE_SCHEMA = 'graphile_worker';

/**
 * The installed library's version, from the package.json beside its entry file (the package exports nothing
 * else; the server's build leaves node_modules in place, where its native packages live too).
 */
function libraryVersion(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('graphile-worker'));
  for (let i = 0; i < 4; i++, dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === 'graphile-worker' && manifest.version) return manifest.version;
    } catch {
      // No package.json at this level: one up.
    }
  }
  throw new Error('graphile-worker: package.json not found beside its entry');
}

/**
 * Installs or upgrades the queue's schema on the owner's pool (one connection is enough). The schema's comment
 * records the library version that last migrated it, so a start whose library matches skips the library's
 * migrator, and with it loading the library: with `RUN_JOBS=false` nothing else needs it (about 95 ms of CPU a
 * start, docs/performance.md "Start-up").
 */
export async function migrateJobQueue(ownerPool: pg.Pool): Promise<void> {
  const stamp = `graphile-worker ${libraryVersion()}`;
  const { rows } = await ownerPool.query<{ stamp: string | null }>(
    `select obj_description(oid, 'pg_namespace') as stamp from pg_namespace where nspname = $1`,
    [JOB_QUEUE_SCHEMA],
  );
  if (rows[0]?.stamp === stamp) return;
  const { Logger, runMigrations } = await import('graphile-worker');
  // The library's migrations log at debug level only; our start-up says nothing about them.
  const quiet = new Logger(() => () => undefined);
  await runMigrations({ pgPool: ownerPool, schema: JOB_QUEUE_SCHEMA, logger: quiet });
  await ownerPool.query(`comment on schema ${JOB_QUEUE_SCHEMA} is '${stamp.replaceAll("'", "''")}'`);
}
