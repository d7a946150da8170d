import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { type ExtractTablesWithRelations, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type DatabaseKind = 'pglite' | 'postgres';

export interface Database {
  db: Db;
  kind: DatabaseKind;
  /**
   * Runs start-up work (migrations, the demo seed) holding the cluster-wide start-up lock: on PostgreSQL a
   * session advisory lock on a dedicated connection, so instances starting together take turns; the work
   * itself may use `db` (other pooled connections). PGlite is one process: an in-process queue.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** A fixed key for the start-up advisory lock: concurrent instances migrate and seed one at a time. */
const STARTUP_LOCK = 7_420_251;

export interface OpenOptions {
  databaseUrl?: string;
  /** Directory for the embedded database; undefined means in memory (tests). */
  dataDir?: string;
}

/** Opens PostgreSQL when a URL is given, else embedded PGlite; applies migrations either way. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    const exclusive = async <T>(work: (lockClient: pg.PoolClient) => Promise<T>): Promise<T> => {
      const lockClient = await pool.connect();
      try {
        await lockClient.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
        return await work(lockClient);
      } finally {
        await lockClient.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]).catch(() => undefined);
        lockClient.release();
      }
    };
    await exclusive((lockClient) => migratePg(drizzlePg(lockClient, { schema }), { migrationsFolder }));
    return { db, kind: 'postgres', exclusive: (work) => exclusive(() => work()), close: () => pool.end() };
  }
  let client: PGlite;
  if (options.dataDir) {
    const dir = join(options.dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
    client = new PGlite(dir);
  } else {
    client = new PGlite();
  }
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  let turn: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = turn.then(work, work);
    turn = run.catch(() => undefined);
    return run;
  };
  return { db: db as unknown as Db, kind: 'pglite', exclusive, close: () => client.close() };
}

/** Cheap liveness probe for /health. */
export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
