import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { connectDatabase, createDatabaseIfMissing, type Database, type DatabaseKind, withDatabase } from '../db/client';

/** What the global setup hands to every test file: a server and a migrated template database on it. */
export interface TestDatabaseServer {
  adminUrl: string;
  template: string;
  kind: DatabaseKind;
}

/**
 * A fresh, migrated database on the run's PostgreSQL server: a copy of the template (`create database …
 * template`, milliseconds instead of running every migration). Its URL also works from another process
 * (a real server started by a test).
 */
export async function createTestDatabaseUrl(): Promise<{ url: string; kind: DatabaseKind; drop(): Promise<void> }> {
  const { adminUrl, template, kind } = inject('testDatabase');
  const name = `ohgood_test_${randomBytes(6).toString('hex')}`;
  await createDatabaseIfMissing(adminUrl, name, template);
  return {
    url: withDatabase(adminUrl, name),
    kind,
    async drop() {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${admin.escapeIdentifier(name)} with (force)`);
      await admin.end();
    },
  };
}

/** A fresh, migrated database for one test file, dropped on close. */
export async function openTestDatabase(): Promise<Database> {
  const target = await createTestDatabaseUrl();
  const database = await connectDatabase(target.url, { kind: target.kind, migrate: false });
  return {
    ...database,
    async close() {
      await database.close();
      await target.drop();
    },
  };
}
