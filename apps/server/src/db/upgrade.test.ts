import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { createTestDatabaseUrl, openTestDatabase } from '../test/test-database';
import { migrateLocked } from './client';

/**
 * A database of an earlier release, upgraded by today's migrations, must end with the schema a fresh database
 * gets. The earlier release is a recorded commit: its migrations are read from git as they were committed.
 */
const RELEASE = 'a4aa8c5ae2b99ac5f0e6c6c398448d2ec76b43d7';
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const MIGRATIONS = 'apps/server/src/db/migrations';

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The migrations folder of `commit`, written to a temporary directory. */
function migrationsAt(commit: string): string {
  const show = (path: string) =>
    execFileSync('git', ['show', `${commit}:${path}`], { cwd: repoRoot, encoding: 'utf8' });
  const dir = mkdtempSync(join(tmpdir(), 'ohgood-release-migrations-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'meta'));
  const journal = show(`${MIGRATIONS}/meta/_journal.json`);
  writeFileSync(join(dir, 'meta/_journal.json'), journal);
  for (const { tag } of JSON.parse(journal).entries as Array<{ tag: string }>) {
    writeFileSync(join(dir, `${tag}.sql`), show(`${MIGRATIONS}/${tag}.sql`));
  }
  return dir;
}

/** Every table column, constraint, index, function, trigger and sequence of the public schema, as text. */
async function schemaOf(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ line: string }>(`
    select 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' '
      || coalesce(column_default, '') || ' ' || coalesce(generation_expression, '') as line
      from information_schema.columns where table_schema = 'public'
    union all
    select 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
      from pg_constraint where connamespace = 'public'::regnamespace
    union all
    select 'index ' || indexdef from pg_indexes where schemaname = 'public'
    union all
    select 'function ' || proname || '(' || pg_get_function_identity_arguments(oid) || ') ' || md5(prosrc)
      from pg_proc where pronamespace = 'public'::regnamespace
    union all
    select 'trigger ' || tgrelid::regclass || ' ' || pg_get_triggerdef(oid)
      from pg_trigger where not tgisinternal
    union all
    select 'sequence ' || sequencename from pg_sequences where schemaname = 'public'
    order by 1`);
  return rows.map((row) => row.line);
}

it("an earlier release's database, upgraded by today's migrations, has a fresh database's schema", async () => {
  // The release's database: created empty and migrated with the release's own files.
  const target = await createTestDatabaseUrl();
  const pool = new pg.Pool({ connectionString: target.url, max: 2 });
  cleanups.push(() => target.drop());
  cleanups.push(() => pool.end());
  // An empty database, not the migrated template: drop what the copy brought and start from nothing.
  await pool.query('drop schema public cascade; create schema public; drop schema if exists drizzle cascade');
  await migrate(drizzle(pool), { migrationsFolder: migrationsAt(RELEASE) });
  const release = await schemaOf(pool);
  expect(release.some((line) => line.startsWith('function payment_final_apply_batch('))).toBe(true);

  await migrateLocked(pool);
  const fresh = await openTestDatabase();
  cleanups.push(() => fresh.close());
  const upgraded = await schemaOf(pool);
  expect(upgraded).toEqual(await schemaOf(fresh.pool));
  expect(upgraded.some((line) => line.startsWith('function payment_final_apply_batch('))).toBe(false);
  expect(upgraded.some((line) => line.startsWith('column domain_events.payload'))).toBe(true);
});
