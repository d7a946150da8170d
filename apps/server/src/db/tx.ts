import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { Db, Schema } from './client';

export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything that runs queries: the database or an open transaction. */
export type Executor = Db | Tx;

const RETRYABLE = new Set(['40001', '40P01']); // serialization failure, deadlock

function pgCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The one transaction helper. Transactions run concurrently on pooled connections: callers use row locks
 * and conditional updates, and a deadlock or serialization failure is retried a few times.
 */
export async function withTx<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction((tx) => work(tx));
    } catch (error) {
      if (attempt >= 4 || !RETRYABLE.has(pgCode(error) ?? '')) throw error;
    }
  }
}

/** True when the error is a unique-constraint violation (optionally of one named constraint). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (pgCode(error) !== '23505') return false;
  if (!constraint) return true;
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const name = (current as { constraint?: unknown }).constraint;
    if (typeof name === 'string') return name === constraint;
    current = (current as { cause?: unknown }).cause;
  }
  return true;
}
