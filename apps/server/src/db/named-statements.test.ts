import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabaseUrl } from '../test/test-database';
import { nameRepeatedStatements, PLAN_PER_VALUE } from './named-statements';

let target: Awaited<ReturnType<typeof createTestDatabaseUrl>>;
let pool: pg.Pool;

beforeAll(async () => {
  target = await createTestDatabaseUrl();
  // One connection, so the prepared statements this test reads are the ones its queries made.
  pool = new pg.Pool({ connectionString: target.url, max: 1 });
  nameRepeatedStatements(pool);
});
afterAll(async () => {
  await pool.end();
  await target.drop();
});

const prepared = async () =>
  (await pool.query<{ statement: string }>('select statement from pg_prepared_statements order by statement')).rows.map(
    (r) => r.statement,
  );

describe('nameRepeatedStatements', () => {
  it('prepares each parameterised query text once per connection, whichever way it is called', async () => {
    for (const n of [1, 2, 3]) {
      expect((await pool.query('select $1::int + 1 as v', [n])).rows[0].v).toBe(n + 1);
      const drizzleStyle = await pool.connect();
      try {
        const res = await drizzleStyle.query({ text: 'select $1::text as w', rowMode: 'array' }, [`x${n}`]);
        expect(res.rows[0]).toEqual([`x${n}`]);
      } finally {
        drizzleStyle.release();
      }
    }
    expect(await prepared()).toEqual(['select $1::int + 1 as v', 'select $1::text as w']);
  });

  it('leaves queries without parameters and explicitly named ones as they are', async () => {
    await pool.query('select 42');
    await pool.query({ name: 'mine', text: 'select $1::int as v', values: [7] });
    expect(await prepared()).toEqual(['select $1::int + 1 as v', 'select $1::int as v', 'select $1::text as w']);
    const names = (await pool.query<{ name: string }>('select name from pg_prepared_statements')).rows.map(
      (r) => r.name,
    );
    expect(names).toContain('mine');
  });

  it('never names a query marked to be planned for its values', async () => {
    for (const pattern of ['a%', 'b%', 'c%', 'd%', 'e%', 'f%', 'g%'])
      await pool.query(`${PLAN_PER_VALUE} select $1::text like 'abc' as m`, [pattern]);
    expect((await prepared()).filter((text) => text.includes('plan per value'))).toEqual([]);
  });
});
