import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/tx';
import { type Batcher, createBatcher } from '../../lib/batcher';

/**
 * Statements that serve many calls at once (ADR 0109): the calls' values go in as arrays, one per field, and
 * the statement answers one row per call, numbered from 1 in `item`.
 */

/** Items per statement; the arrays are parameters, so the statement text (and its plan) never changes. */
const MAX_BATCH = 64;
/** Statements of each kind in flight at once, each on its own pooled connection. */
const IN_FLIGHT = 2;

/**
 * The statement's parameters for `items`: `field(pick)` is one field of every item as one array parameter
 * (drizzle would spread a bare array into a list of parameters).
 */
export function fieldsOf<In>(items: readonly In[]) {
  return (pick: (item: In) => unknown) => sql.param(items.map(pick));
}

/** Calls batched into `statement`; `answer` turns a call's row (undefined if it has none) into its result. */
export function statementBatcher<In, Row extends { item: number }, Out>(
  db: Db,
  statement: (items: readonly In[]) => SQL,
  answer: (row: Row | undefined, index: number) => Out,
): Batcher<In, Out> {
  return createBatcher<In, Out>({
    maxBatch: MAX_BATCH,
    concurrency: IN_FLIGHT,
    async runBatch(items) {
      const byItem = new Map((await rowsOf<Row>(db, statement(items))).map((row) => [row.item, row]));
      return items.map((_, index) => answer(byItem.get(index + 1), index));
    },
  });
}
