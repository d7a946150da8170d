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
 * A fresh, migrated database for one test file: a copy of the run's template (`create database … template`,
 * milliseconds instead of running every migration), dropped on close.
 */
export async function openTestDatabase(): Promise<Database & { url: string }> {
  const { adminUrl, template, kind } = inject('testDatabase');
  const name = `ohgood_test_${randomBytes(6).toString('hex')}`;
  await createDatabaseIfMissing(adminUrl, name, template);
  const database = await connectDatabase(withDatabase(adminUrl, name), { kind, migrate: false });
  return {
    ...database,
    /** For tests that open a second pool on the same database, as a second server instance would. */
    url: withDatabase(adminUrl, name),
    async close() {
      await database.close();
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${admin.escapeIdentifier(name)} with (force)`);
      await admin.end();
    },
  };
}
