import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabaseUrl } from '../test/test-database';
import { JOB_QUEUE_SCHEMA, migrateJobQueue } from './job-queue-schema';

/*
 * The queue's schema is migrated by the library only when the library changed: a start whose installed version
 * matches the schema's stamp reads one row and loads nothing else; a stale or missing stamp runs the library's
 * migrator, which leaves the schema current and stamped again.
 */
let owner: pg.Pool;
let statements: string[] = [];
beforeAll(async () => {
  owner = new pg.Pool({ connectionString: (await createTestDatabaseUrl()).ownerUrl, max: 1 });
  const query = owner.query.bind(owner) as (text: unknown, values?: unknown) => Promise<unknown>;
  owner.query = ((text: unknown, values?: unknown) => {
    statements.push(typeof text === 'string' ? text : String((text as { text?: string }).text));
    return query(text, values);
  }) as typeof owner.query;
});
afterAll(() => owner?.end());

const stampNow = async () =>
  (
    await owner.query<{ stamp: string | null }>(
      `select obj_description(oid, 'pg_namespace') as stamp from pg_namespace where nspname = $1`,
      [JOB_QUEUE_SCHEMA],
    )
  ).rows[0]?.stamp;

it('the template was migrated and stamped with the installed version; a second migrate reads the stamp only', async () => {
  // Read here straight from the hoisted package, not the way the module finds it.
  const manifest = new URL('../../../../node_modules/graphile-worker/package.json', import.meta.url);
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  const stamp = await stampNow();
  expect(stamp).toBe(`graphile-worker ${version}`);
  statements = [];
  await migrateJobQueue(owner);
  expect(statements).toHaveLength(1);
});

it('a stale stamp runs the library migrator, which leaves the queue usable and the stamp current', async () => {
  const current = await stampNow();
  await owner.query(`comment on schema ${JOB_QUEUE_SCHEMA} is 'graphile-worker 0.0.1'`);
  statements = [];
  await migrateJobQueue(owner);
  expect(statements.length).toBeGreaterThan(1);
  expect(await stampNow()).toBe(current);
  const { rows } = await owner.query<{ n: number }>(`select count(*)::int as n from ${JOB_QUEUE_SCHEMA}.migrations`);
  expect(rows[0]?.n).toBeGreaterThan(0);
});
