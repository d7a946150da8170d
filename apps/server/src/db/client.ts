import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { readOrCreateSecret } from '../lib/secrets';
import { isDependencyOutage } from '../lib/unavailable';
import { type EmbeddedPostgres, startEmbeddedPostgres } from './embedded';
import { migrateJobQueue } from './job-queue-schema';
import { nameRepeatedStatements } from './named-statements';
import { ensureEmbeddedRoles, grantRuntimeRole, isSuperuser, OWNER_ROLE, RUNTIME_ROLE } from './roles';
import * as schema from './schema';

/**
 * The query builder, without drizzle's relational `db.query` API (unused here): given the schema, drizzle builds
 * one relational query builder per table for every transaction it opens.
 */
export type Db = PgDatabase<PgQueryResultHKT>;
/** `embedded`: the PostgreSQL the app starts itself; `postgres`: an external one (DATABASE_URL). */
export type DatabaseKind = 'embedded' | 'postgres';

export interface Database {
  db: Db;
  kind: DatabaseKind;
  /** The pool behind `db`. */
  pool: pg.Pool;
  /**
   * Runs start-up work (the demo seed) holding the cluster-wide start-up lock that migrations take too: a
   * session advisory lock on a dedicated connection, so instances starting together take turns. The work
   * gets that connection as its `db`: one connection already open, its statements one after another.
   */
  exclusive<T>(work: (db: Db) => Promise<T>): Promise<T>;
  /** Its connection URL, for the one LISTEN connection of an instance. */
  url: string;
  /**
   * Settles once a connection to `url` may open: at once, but for an embedded cluster whose roles are still
   * being made (on a new one the app's role does not exist before). What connects while the app is built (the
   * LISTEN connection) waits for it; `migrated` settles after it, and rejects when it does.
   */
  connectable: Promise<void>;
  /**
   * Settles when the schema is ready: the migrations applied and the runtime role granted what it needs.
   * Until then a table must not be touched (a connection, a LISTEN may, once `connectable`). Already settled
   * unless the database came from `openDatabaseWhileMigrating`; a failed migration rejects it, the database
   * closed.
   */
  migrated: Promise<void>;
  /** Called when shutdown begins: an embedded server this process will stop is not shared from then on. */
  retire(): void;
  close(): Promise<void>;
}

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** A fixed key for the start-up advisory lock: concurrent instances migrate and seed one at a time. */
const STARTUP_LOCK = 7_420_251;
/** PostgreSQL's `invalid_catalog_name`: the database named in the connection does not exist. */
const UNKNOWN_DATABASE = '3D000';
/**
 * A connection the server neither accepts nor refuses (a network cut, a failover in progress) fails after
 * this long, as an outage (503), instead of holding its request until the client gives up.
 */
const CONNECT_TIMEOUT_MS = 5_000;
/** The app's database inside the embedded cluster. */
const EMBEDDED_DATABASE = 'ohgood';

export interface OpenOptions {
  databaseUrl?: string;
  /** Data directory of the embedded PostgreSQL, used when no URL is given. */
  dataDir?: string;
  /** The owner role's URL for migrations (MIGRATION_DATABASE_URL); without it DATABASE_URL migrates. */
  migrationDatabaseUrl?: string;
  /** The embedded PostgreSQL already starting (main.ts starts it before this module loads); else started here. */
  embedded?: Promise<EmbeddedPostgres>;
}

/**
 * Opens the external PostgreSQL when a URL is given, else starts the embedded one under the data
 * directory; applies migrations either way. `close()` also stops an embedded server this process started.
 */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  const database = await openDatabaseWhileMigrating(options);
  await database.migrated;
  return database;
}

/**
 * `openDatabase`, returned as soon as the embedded cluster accepts connections, its roles and migrations still
 * in the making (`connectable` and `migrated` say when each is done): a start builds the app meanwhile; what
 * connects waits for the roles, what reads or writes a table for the migrations. An external database is
 * returned migrated.
 */
export async function openDatabaseWhileMigrating(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) return openExternal(options.databaseUrl, options.migrationDatabaseUrl);
  const { dataDir } = options;
  if (!dataDir) throw new Error('openDatabase needs DATABASE_URL or a data directory');
  const server = await (options.embedded ?? startEmbeddedPostgres({ dataDir, durable: true }));
  try {
    const roles = embeddedRoles(dataDir);
    // One superuser session does the whole setup: it makes the roles, then, as the owner, applies the
    // migrations and grants. Each connection costs ~20 ms of the server's own work, and none of this holds
    // the app's build: only what connects waits for the roles, and only what touches a table for the rest.
    const setup = setupSession(server.url(EMBEDDED_DATABASE));
    const connectable = ensureRolesAndDatabase(setup.pool, server.url('postgres'), roles.passwords);
    connectable.catch(() => undefined);
    // The app's pool connects as the runtime role (least privilege, ADR 0202). Its first connection opens
    // while the owner migrates, so the seed that follows finds it open instead of waiting on a handshake.
    const database = await connectDatabase(server.url(EMBEDDED_DATABASE, roles.runtime), {
      kind: 'embedded',
      migrate: false,
    });
    const firstConnection = connectable.then(
      () =>
        database.pool.connect().then(
          (client) => client.release(),
          // Not fatal here: the first statement on the pool reports a connection that cannot open.
          () => undefined,
        ),
      () => undefined,
    );
    const migrated = connectable
      .then(() => Promise.all([setup.asOwner((owner) => migrateAndGrant(owner, RUNTIME_ROLE)), firstConnection]))
      .then(() => undefined)
      .finally(setup.end)
      .catch(async (error: unknown) => {
        await firstConnection;
        await database.close();
        await server.stop();
        throw error;
      });
    // Settled either way before its readers await it: a failure is theirs to report.
    migrated.catch(() => undefined);
    return {
      ...database,
      connectable,
      migrated,
      retire: () => server.retire(),
      async close() {
        await database.close();
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/**
 * An external PostgreSQL. With a migration URL (the owner role) migrations run on it and the runtime role
 * of DATABASE_URL is granted what it needs; without one, DATABASE_URL migrates as before. Either way a
 * runtime role that is a superuser is warned about: it could switch off what the database enforces.
 */
async function openExternal(url: string, migrationUrl: string | undefined): Promise<Database> {
  if (migrationUrl) {
    const runtimeUser = decodeURIComponent(new URL(url).username);
    await migrateAs(migrationUrl, runtimeUser);
  }
  const database = await connectDatabase(url, { kind: 'postgres', migrate: !migrationUrl });
  // The first use of the app's own connection: refused or down, the start-up wait tries again.
  const superuser = await isSuperuser(database.pool).catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  if (superuser) {
    console.warn(
      'DATABASE_URL connects as a superuser: the app could disable the audit log and every rule the database ' +
        'enforces. Give it a runtime role and run migrations with MIGRATION_DATABASE_URL (docs/deploy.md).',
    );
  }
  return database;
}

/** Applies the migrations as the owner role, then grants the runtime role what the app needs. */
async function migrateAs(ownerUrl: string, runtimeRole: string): Promise<void> {
  const owner = singleConnectionPool(ownerUrl);
  try {
    await migrateAndGrant(owner, runtimeRole);
  } finally {
    await owner.end();
  }
}

/** The migrations (drizzle's, then the job queue's), then the runtime role's grants, on the owner's pool. */
async function migrateAndGrant(owner: pg.Pool, runtimeRole: string): Promise<void> {
  await migrateLocked(owner);
  await grantRuntimeRole(owner, runtimeRole);
}

/**
 * The embedded cluster's roles, and on a new cluster's first start the app's database too. A restart connects
 * straight away: asking first would cost a connection of its own to every start.
 */
async function ensureRolesAndDatabase(
  superuser: pg.Pool,
  serverUrl: string,
  passwords: { owner: string; runtime: string },
): Promise<void> {
  await ensureEmbeddedRoles(superuser, EMBEDDED_DATABASE, passwords).catch(async (error: unknown) => {
    if ((error as { code?: unknown }).code !== UNKNOWN_DATABASE) throw error;
    await createDatabaseIfMissing(serverUrl, EMBEDDED_DATABASE);
    await ensureEmbeddedRoles(superuser, EMBEDDED_DATABASE, passwords);
  });
}

/**
 * The embedded cluster's setup session: a pool of one superuser connection. `asOwner` runs its work as the
 * owner role (SET ROLE), so what the migrations make is the owner's, as when the owner logs in; a connection
 * the pool opens again meanwhile becomes the owner too, or ends, failing the work, never running it as the
 * superuser. Ended without waiting: nothing needs its goodbye.
 */
export function setupSession(url: string, owner = OWNER_ROLE) {
  const pool = singleConnectionPool(url);
  const setRole = `set role ${pg.escapeIdentifier(owner)}`;
  let asOwner = false;
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    // Sent before the statements of the connection's first checkout, which pg queues behind it.
    if (asOwner) client.query(setRole).catch(() => client.end().catch(() => undefined));
  });
  return {
    pool,
    async asOwner<T>(work: (owner: pg.Pool) => Promise<T>): Promise<T> {
      asOwner = true;
      await pool.query(setRole);
      return work(pool);
    },
    end: () => void pool.end().catch(() => undefined),
  };
}

/** A pool of one connection for a start's setup work; an idle connection's error only ends it, never the start. */
function singleConnectionPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  pool.on('error', () => undefined);
  return pool;
}

/** The embedded roles' logins: their passwords are generated once and kept in the data directory. */
function embeddedRoles(dataDir: string) {
  const owner = { user: OWNER_ROLE, password: readOrCreateSecret(join(dataDir, 'postgres-owner-password'), 24) };
  const runtime = { user: RUNTIME_ROLE, password: readOrCreateSecret(join(dataDir, 'postgres-app-password'), 24) };
  return { owner, runtime, passwords: { owner: owner.password, runtime: runtime.password } };
}

/** A pool on one database, migrated first when asked (tests start from an already migrated template). */
export async function connectDatabase(
  url: string,
  options: { kind: DatabaseKind; migrate: boolean; max?: number },
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  survivesOutages(pool);
  nameRepeatedStatements(pool);
  const db: Db = drizzle(pool);
  try {
    if (options.migrate) await migrateLocked(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const exclusive = <T>(work: (db: Db) => Promise<T>) =>
    withStartupLock(pool, (lockClient) => work(drizzle(lockClient)));
  return {
    db,
    kind: options.kind,
    pool,
    url,
    exclusive,
    connectable: Promise.resolve(),
    migrated: Promise.resolve(),
    retire: () => undefined,
    close: () => pool.end(),
  };
}

/**
 * A database restart, failover or crash never crashes the process. The pool already discards an idle
 * connection the server dropped (its `error` event); a connection checked out between two statements (a
 * transaction waiting on the app) emits `error` too, with no listener of the pool's: every client gets one
 * of its own for its whole life. The statement or transaction on it fails (503 upstream), the pool drops it.
 */
function survivesOutages(pool: pg.Pool): void {
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    releaseWhenFirstStatementFails(client);
  });
  pool.on('acquire', (client) => checkedOut.add(client));
  releaseOncePerCheckout(pool);
}

/** Clients just checked out whose first statement has not been sent yet. */
const checkedOut = new WeakSet<pg.PoolClient>();

/**
 * Drizzle's transaction sends `begin` on a checked-out client before its `try`: when that fails (the
 * connection was cut while idle in the pool) the client is never released, and after `max` of those the
 * pool had nothing left to give: the app stayed at 503 after the database came back. So when a checkout's
 * first statement fails on a dead connection, the client is released here (and destroyed by the pool, as
 * it is no longer queryable); a release by its caller afterwards is a no-op (`releaseOncePerCheckout`).
 */
function releaseWhenFirstStatementFails(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const result = query(...args);
    if (!checkedOut.delete(client) || !(result instanceof Promise)) return result;
    const release = client.release;
    result.catch((error: unknown) => {
      if (isDependencyOutage(error)) release(error instanceof Error ? error : true);
    });
    return result;
  }) as typeof client.query;
}

type Release = (error?: Error | boolean) => void;
type ConnectCallback = (error: Error | undefined, client: pg.PoolClient | undefined, release: Release) => void;

/**
 * Every checkout's release acts on its first call only; later calls do nothing. The pool's own throws on a
 * second call, and a checkout whose first statement failed is released twice: above, and by its holder. It
 * is made at checkout because `pool.connect(callback)` hands its caller the release function itself:
 * graphile-worker keeps it for its LISTEN connection and calls it from code it does not await, so after a
 * database restart that second release was an unhandled rejection, which ends the process. Per checkout,
 * not per client: a late call never releases the client's next checkout.
 */
function releaseOncePerCheckout(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as { (): Promise<pg.PoolClient>; (callback: ConnectCallback): void };
  pool.connect = ((callback?: ConnectCallback) =>
    callback
      ? connect((error, client, release) => callback(error, client, client ? releasedOnce(client) : release))
      : connect().then((client) => {
          releasedOnce(client);
          return client;
        })) as typeof pool.connect;
}

/** Replaces the checkout's release with one that ignores every call after the first, and returns it. */
function releasedOnce(client: pg.PoolClient): Release {
  const release: Release = client.release;
  let released = false;
  client.release = (error) => {
    if (released) return;
    released = true;
    release(error);
  };
  return client.release;
}

/** Runs `work` holding the start-up advisory lock (on its own connection, handed to `work`). */
async function withStartupLock<T>(pool: pg.Pool, work: (lockClient: pg.PoolClient) => Promise<T>): Promise<T> {
  const lockClient = await pool.connect();
  try {
    await lockClient.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
    return await work(lockClient);
  } finally {
    await lockClient.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]).catch(() => undefined);
    lockClient.release();
  }
}

/**
 * Applies the migrations under the start-up lock, so instances starting together migrate one at a time, then
 * the job queue's schema (its migrator takes care of concurrent instances itself, on the pool's connection).
 */
export async function migrateLocked(pool: pg.Pool): Promise<void> {
  await withStartupLock(pool, (lockClient) => migrate(drizzle(lockClient, { schema }), { migrationsFolder }));
  await migrateJobQueue(pool);
}

export async function createDatabaseIfMissing(adminUrl: string, name: string, template?: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      const from = template ? ` template ${admin.escapeIdentifier(template)}` : '';
      await admin.query(`create database ${admin.escapeIdentifier(name)}${from}`);
    }
  } finally {
    await admin.end();
  }
}

/** The same server URL pointing at another database. */
export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Cheap liveness probe for /health. */
export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
