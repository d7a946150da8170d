/*
 * The plans of a search as the app runs it (`BENCH_PLANS=1 npm run bench`, or by hand):
 *   node --import tsx src/modules/shorts/search-plans.ts <database url> <word>…
 * Each word is searched twice through the real search service; on the second (warm) run every statement
 * it sends is printed with its time and `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)`. The statements are the
 * service's own, so the plans never drift from the code.
 */

import type { SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { createSearchService } from './search';

const [url, ...words] = process.argv.slice(2);
if (!url || words.length === 0) throw new Error('usage: search-plans.ts <database url> <word>…');

const pool = new pg.Pool({ connectionString: url, max: 1 });
const db = drizzle(pool);
const execute = db.execute.bind(db);
const dialect = new PgDialect();
let explaining = false;
const report: string[] = [];

// Times each statement and, while explaining, prints its plan with the same parameters.
Object.assign(db, {
  execute: async (query: SQL) => {
    const began = performance.now();
    const result = await execute(query);
    const ms = performance.now() - began;
    if (explaining) {
      const { sql, params } = dialect.sqlToQuery(query);
      const plan = await pool.query(`explain (analyze, buffers, costs off) ${sql}`, params as unknown[]);
      report.push(`-- ${ms.toFixed(1)} ms`, ...plan.rows.map((row) => row['QUERY PLAN'] as string), '');
    }
    return result;
  },
});

const search = createSearchService(db, '');
for (const q of words) {
  explaining = false;
  await search.search({ q, limit: 8 });
  explaining = true;
  report.length = 0;
  const began = performance.now();
  await search.search({ q, limit: 8 });
  console.log(
    `\n#### search '${q}' (${(performance.now() - began).toFixed(1)} ms with EXPLAIN)\n\n\`\`\`\n${report.join('\n')}\`\`\``,
  );
}
await pool.end();
