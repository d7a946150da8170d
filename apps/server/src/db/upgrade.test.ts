import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { latestRelease } from '../../../../scripts/releases.mjs';
import { createTestDatabaseUrl, openTestDatabase } from '../test/test-database';
import { migrateLocked } from './client';

/**
 * A database of the newest release, upgraded by today's migrations, must end with the schema a fresh database
 * gets. A release is a commit named in CHANGELOG.md (ADR 0212), so the test moves forward with each release;
 * its migrations are read from git as they were committed.
 */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const RELEASE = latestRelease(repoRoot).commit;
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
  for (const tag of tagsOf(journal)) writeFileSync(join(dir, `${tag}.sql`), show(`${MIGRATIONS}/${tag}.sql`));
  return dir;
}

const tagsOf = (journal: string) => (JSON.parse(journal).entries as Array<{ tag: string }>).map((e) => e.tag);

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
  const releaseMigrations = migrationsAt(RELEASE);
  await migrate(drizzle(pool), { migrationsFolder: releaseMigrations });
  const release = await schemaOf(pool);
  // Today's migrations begin with the release's own, unchanged in order (they are append-only).
  const releaseTags = tagsOf(readFileSync(join(releaseMigrations, 'meta/_journal.json'), 'utf8'));
  const todayTags = tagsOf(readFileSync(join(repoRoot, MIGRATIONS, 'meta/_journal.json'), 'utf8'));
  expect(todayTags.slice(0, releaseTags.length)).toEqual(releaseTags);

  await migrateLocked(pool);
  const fresh = await openTestDatabase();
  cleanups.push(() => fresh.close());
  const upgraded = await schemaOf(pool);
  const freshSchema = await schemaOf(fresh.pool);
  expect(upgraded).toEqual(freshSchema);
  // The release's schema really was older whenever migrations came after it (0.5 lacks push_deliveries).
  if (todayTags.length > releaseTags.length) expect(release).not.toEqual(freshSchema);
  expect(upgraded.some((line) => line.startsWith('column domain_events.payload'))).toBe(true);
});
