import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { connectDatabase, createDatabaseIfMissing, type Database, type DatabaseKind, withDatabase } from '../db/client';

/** What the global setup hands to every test file: a server and a migrated template database on it. */
export interface TestDatabaseServer {
  adminUrl: string;
  template: string;
  kind: DatabaseKind;
  /** The app's runtime role on that server: test databases are reached as it, like the app in production. */
  runtime: { user: string; password: string };
}

/** A test database: the app's URL (the runtime role) and the owner's, for what only the owner may do (DDL). */
export interface TestDatabaseUrls {
  url: string;
  ownerUrl: string;
  kind: DatabaseKind;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database on the run's PostgreSQL server: a copy of the template (`create database …
 * template`, milliseconds instead of running every migration). Its URL also works from another process
 * (a real server started by a test).
 */
export async function createTestDatabaseUrl(): Promise<TestDatabaseUrls> {
  const { adminUrl, template, kind, runtime } = inject('testDatabase');
  const name = `ohgood_test_${randomBytes(6).toString('hex')}`;
  await createDatabaseIfMissing(adminUrl, name, template);
  const ownerUrl = withDatabase(adminUrl, name);
  const url = new URL(ownerUrl);
  url.username = encodeURIComponent(runtime.user);
  url.password = encodeURIComponent(runtime.password);
  return {
    url: url.toString(),
    ownerUrl,
    kind,
    async drop() {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${admin.escapeIdentifier(name)} with (force)`);
      await admin.end();
    },
  };
}

/** Runs statements as the database's owner (schema changes a test makes), on a connection of their own. */
export async function asOwner(database: { ownerUrl: string }, statements: string[]): Promise<void> {
  const owner = new pg.Client({ connectionString: database.ownerUrl });
  await owner.connect();
  try {
    for (const statement of statements) await owner.query(statement);
  } finally {
    await owner.end();
  }
}

/** A fresh, migrated database for one test file, dropped on close. */
export type TestDatabase = Database & { url: string; ownerUrl: string };

export async function openTestDatabase(): Promise<TestDatabase> {
  const target = await createTestDatabaseUrl();
  const database = await connectDatabase(target.url, { kind: target.kind, migrate: false });
  return {
    ...database,
    /** For tests that open a second pool on the same database, as a second server instance would. */
    url: target.url,
    /** For a test that changes the schema (the app's role may not). */
    ownerUrl: target.ownerUrl,
    async close() {
      await database.close();
      await target.drop();
    },
  };
}
