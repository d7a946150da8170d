import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it, vi } from 'vitest';
import { buildApp } from './app';
import { connectDatabase, createDatabaseIfMissing, type Database, withDatabase } from './db/client';
import { grantRuntimeRole } from './db/roles';
import { ManualClock } from './lib/clock';
import { testConfig } from './lib/config';
import { deferred } from './test/deferred';

/*
 * A start builds the app while the database still migrates (main.ts, db/client.ts): the build may connect and
 * LISTEN once `connectable` (an embedded cluster's roles are made meanwhile), but touches no table before
 * `migrated`, and the app's start (its onReady, so `listen`) waits for it.
 * Here the database is a fresh one with no schema at all, as on a new data directory: a table read too early
 * is seen by the pool, and would fail.
 */
const { adminUrl, kind, runtime } = inject('testDatabase');
const name = `ohgood_unmigrated_${randomBytes(6).toString('hex')}`;
const ownerUrl = withDatabase(adminUrl, name);
let database: Database;

beforeAll(async () => {
  await createDatabaseIfMissing(adminUrl, name);
  const url = new URL(ownerUrl);
  url.username = encodeURIComponent(runtime.user);
  url.password = encodeURIComponent(runtime.password);
  database = await connectDatabase(url.toString(), { kind, migrate: false });
});

afterAll(async () => {
  await database.close();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${admin.escapeIdentifier(name)} with (force)`);
  await admin.end();
});

/** The app as a start builds it, on `database`. */
const buildOn = (database: Database) =>
  buildApp({
    config: testConfig(),
    database,
    clock: new ManualClock('2026-11-22T03:00:00Z'),
    jwtSecret: 'test-secret-test-secret-test-secret-1234',
  });

/** Starts readying `app` (its onReady hooks); `settled()` says whether that is over yet, either way. */
function startReadying(app: FastifyInstance) {
  let settled = false;
  const ready = Promise.resolve(app.ready()).finally(() => {
    settled = true;
  });
  ready.catch(() => undefined);
  return { ready, settled: () => settled };
}

/** The app started on the schema: a public read of the tables answers. */
async function expectTablesRead(app: FastifyInstance): Promise<void> {
  const feed = await app.inject({ method: 'GET', url: '/api/public/shorts/feeds' });
  expect(feed.statusCode).toBe(200);
}

/** The readiness probe's ping: it names no table, and samples the database from the build on. */
const PING = 'select 1';

/**
 * The statements the app's pool sends while `early()` holds, but for the readiness ping: every connection's,
 * so single statements and transactions alike.
 */
function statementsSent(pool: pg.Pool, early: () => boolean): string[] {
  const seen: string[] = [];
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const [first] = args;
      const text = typeof first === 'string' ? first : String((first as { text?: unknown })?.text);
      if (early() && text !== PING) seen.push(text);
      return query(...args);
    }) as typeof client.query;
  });
  return seen;
}

it('is built beside the migrations, touches no table before they are done, and starts only after them', async () => {
  const migrated = deferred<void>();
  let schemaReady = false;
  const early = statementsSent(database.pool, () => !schemaReady);
  const app = await buildOn({ ...database, migrated: migrated.promise });
  const { ready, settled } = startReadying(app);
  try {
    // The migrations run meanwhile, as the owner does at a start; the app waits for the word, not for them.
    const owner = await connectDatabase(ownerUrl, { kind, migrate: true, max: 1 });
    try {
      await grantRuntimeRole(owner.pool, runtime.user);
    } finally {
      await owner.close();
    }
    expect(early).toEqual([]);
    expect(settled()).toBe(false);
    schemaReady = true;
    migrated.resolve();
    await ready;
    await expectTablesRead(app);
  } finally {
    migrated.resolve();
    await app.close();
  }
});

it('does not start when the migrations fail, and says why', async () => {
  const migrated = deferred<void>();
  const app = await buildOn({ ...database, migrated: migrated.promise });
  try {
    migrated.reject(new Error('migration 0042 failed'));
    await expect(app.ready()).rejects.toThrow('migration 0042 failed');
  } finally {
    await app.close().catch(() => undefined);
  }
});

it('opens no connection before its role exists: on a new cluster the app is built while the roles are made', async () => {
  // The schema is there (as after the owner's migrations); the role the app connects as is not, yet.
  const owner = await connectDatabase(ownerUrl, { kind, migrate: true, max: 1 });
  const role = `ohgood_late_${randomBytes(6).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  const url = new URL(ownerUrl);
  url.username = role;
  url.password = password;
  const late = await connectDatabase(url.toString(), { kind, migrate: false });
  const connectable = deferred<void>();
  // Every connection the driver opens as the role that is not there: the pool's, and the LISTEN client of its own.
  const connects = vi.spyOn(pg.Client.prototype, 'connect');
  const triedAsRole = () => connects.mock.contexts.filter((client) => (client as pg.Client).user === role).length;
  const app = await buildOn({ ...late, connectable: connectable.promise });
  const { ready, settled } = startReadying(app);
  try {
    // Made after the build, as the setup session does: a connection tried before it would have been refused
    // (28P01), failing the start.
    expect(triedAsRole()).toBe(0);
    await owner.pool.query(`create role ${role} login password '${password}'`);
    await grantRuntimeRole(owner.pool, role);
    expect(settled()).toBe(false);
    connectable.resolve();
    await ready;
    expect(triedAsRole()).toBeGreaterThan(0);
    await expectTablesRead(app);
  } finally {
    connects.mockRestore();
    connectable.resolve();
    await app.close();
    await late.close();
    await owner.pool.query(`drop owned by ${role}`);
    await owner.pool.query(`drop role ${role}`);
    await owner.close();
  }
});
