import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { buildApp } from './app';
import { connectDatabase, createDatabaseIfMissing, type Database, withDatabase } from './db/client';
import { grantRuntimeRole } from './db/roles';
import { ManualClock } from './lib/clock';
import { testConfig } from './lib/config';
import { deferred } from './test/deferred';

/*
 * A start builds the app while the database still migrates (main.ts, db/client.ts): the build may connect and
 * LISTEN, but touches no table before `migrated`, and the app's start (its onReady, so `listen`) waits for it.
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
  const app = await buildApp({
    config: testConfig(),
    database: { ...database, migrated: migrated.promise },
    clock: new ManualClock('2026-11-22T03:00:00Z'),
    jwtSecret: 'test-secret-test-secret-test-secret-1234',
  });
  let started = false;
  const ready = Promise.resolve(app.ready()).then(() => {
    started = true;
  });
  ready.catch(() => undefined);
  try {
    // The migrations run meanwhile, as the owner does at a start; the app waits for the word, not for them.
    const owner = await connectDatabase(ownerUrl, { kind, migrate: true, max: 1 });
    try {
      await grantRuntimeRole(owner.pool, runtime.user);
    } finally {
      await owner.close();
    }
    expect(early).toEqual([]);
    expect(started).toBe(false);
    schemaReady = true;
    migrated.resolve();
    await ready;
    // Started on the schema it waited for: a public read of the tables answers.
    const feed = await app.inject({ method: 'GET', url: '/api/public/shorts/feeds' });
    expect(feed.statusCode).toBe(200);
  } finally {
    migrated.resolve();
    await app.close();
  }
});

it('does not start when the migrations fail, and says why', async () => {
  const migrated = deferred<void>();
  const app = await buildApp({
    config: testConfig(),
    database: { ...database, migrated: migrated.promise },
    clock: new ManualClock('2026-11-22T03:00:00Z'),
    jwtSecret: 'test-secret-test-secret-test-secret-1234',
  });
  try {
    migrated.reject(new Error('migration 0042 failed'));
    await expect(app.ready()).rejects.toThrow('migration 0042 failed');
  } finally {
    await app.close().catch(() => undefined);
  }
});
