import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/** An open transaction of `Db`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything that runs queries: the database or an open transaction. */
export type Executor = Db | Tx;

/** The rows of a raw SQL statement (column names as the database spells them). */
export async function rowsOf<R>(executor: Executor, query: SQL): Promise<R[]> {
  return ((await executor.execute(query)) as unknown as { rows: R[] }).rows;
}

/**
 * `rowsOf` for a statement sent hundreds of times a second: its text is built once, with
 * `sql.placeholder(name)` where each call's values go. Drizzle builds a statement's text on every call
 * (~40 µs for a one-line insert), and that building was 14 % of the server's busy time under the mixed load
 * (docs/performance.md). Run as `execute` runs it, on the database or inside a transaction.
 */
export function builtOnce<R>(query: SQL): (executor: Executor, values: Record<string, unknown>) => Promise<R[]> {
  // Built on first use, not at import: the start loads every module (ADR 0157).
  let built: ReturnType<PgDialect['sqlToQuery']> | undefined;
  return async (executor, values) => {
    built ??= new PgDialect().sqlToQuery(query);
    const prepared = executor._.session.prepareQuery(built, undefined, undefined, false);
    return ((await prepared.execute(values)) as unknown as { rows: R[] }).rows;
  };
}

const RETRYABLE = new Set(['40001', '40P01']); // serialization failure, deadlock

/** A deadlock or serialization failure: the transaction can run again (`withTx` does, a few times). */
export function isRetryable(error: unknown): boolean {
  return RETRYABLE.has(pgCode(error) ?? '');
}

/** PostgreSQL's answer when `lock_timeout` ran out before a row lock was had. */
export function isLockTimeout(error: unknown): boolean {
  return pgCode(error) === '55P03';
}

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
 * LOCK ORDER — every transaction that moves money, points or grade takes its row locks in this order, so
 * two of them can never wait on each other in a cycle (a deadlock would surface as a retry storm, then a 500):
 *
 *   1. customers        — `lockCustomer` / `lockCustomers` (ascending id) from `db/locks.ts`, always first,
 *                         even when the rest of the work only updates it later (postPoints, grade, suspension);
 *                         FOR NO KEY UPDATE (`CUSTOMER_LOCK`), so inserts that only refer to the customer pass;
 *   2. payment_requests — the request being paid or refunded (one row);
 *   3. purchases        — bill lines, in ascending id;
 *   4. statements       — the customer's statement rows;
 *   5. everything else  — checkins, short_views, short_watch_daily, point_ledger, idempotency_keys.
 *
 * Paths: final (customer → request, `payments/final-read.ts`, then its one write statement: statements, purchase,
 * ledger, answers, events), merchant refund (customer of the request → request →
 * purchase → statements), repayment (customer → purchases → statements), extension (customer → statement),
 * check-in and watch points (customer → their own rows), bill jobs (all affected customers by id →
 * statements), validate of a fresh code (the customer's failed-code counter in `rate_limit_counters`, which no
 * other path locks → the request). Rows of one kind that a path locks together are locked in ascending id.
 */

/**
 * The one transaction helper. Transactions run concurrently on pooled connections: callers use row locks
 * and conditional updates, and a deadlock or serialization failure is retried a few times.
 */
export async function withTx<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let open: Tx | undefined;
    try {
      const result = await db.transaction((tx) => {
        open = tx;
        return work(tx);
      });
      if (open) {
        runAfterCommit(open);
        announceNotes(db, open);
      }
      return result;
    } catch (error) {
      const code = pgCode(error) ?? '';
      if (code === '40P01') txRetries.deadlocks += 1;
      if (attempt >= 4 || !RETRYABLE.has(code)) throw error;
    }
  }
}

const afterCommits = new WeakMap<Tx, Array<() => void>>();

/**
 * Runs `callback` once `tx` has committed (never when it rolls back), for a transaction run by `withTx`: a
 * wake-up for work that reads what the transaction wrote. It must not be the only way that work happens, as a
 * transaction run some other way never calls it.
 */
export function afterCommit(tx: Tx, callback: () => void): void {
  const callbacks = afterCommits.get(tx);
  if (callbacks) {
    if (!callbacks.includes(callback)) callbacks.push(callback);
  } else afterCommits.set(tx, [callback]);
}

function runAfterCommit(tx: Tx): void {
  for (const callback of afterCommits.get(tx) ?? []) callback();
  afterCommits.delete(tx);
}

/**
 * Who hears what committed transactions did: listeners by topic (say, "this transaction recorded domain
 * events"). One instance per app, made where the app is composed and bound to the database handle its services
 * get (`listenedDb`), so it travels with the dependencies every service already has instead of living in a
 * module of its own: two apps in one process hear only their own commits.
 */
export class CommitListeners {
  readonly #byTopic = new Map<string, Set<() => void>>();

  /** Calls `listener` after each commit that noted `topic`; returns the function that stops listening. */
  on(topic: string, listener: () => void): () => void {
    const listeners = this.#byTopic.get(topic) ?? new Set();
    this.#byTopic.set(topic, listeners);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  announce(topic: string): void {
    for (const listener of this.#byTopic.get(topic) ?? []) listener();
  }
}

const LISTENERS = Symbol('commit listeners');
type ListenedDb = Db & { [LISTENERS]?: CommitListeners };

/**
 * `db` whose transactions run by `withTx` tell `listeners` the topics they noted (`noteForCommit`). It is `db`
 * itself underneath (same pool, same statements), only carrying the listeners.
 */
export function listenedDb(db: Db, listeners: CommitListeners): Db {
  return Object.create(db, { [LISTENERS]: { value: listeners } }) as Db;
}

const notes = new WeakMap<Tx, Set<string>>();

/**
 * Notes that `tx` did something listeners of `topic` want to hear of once it commits (never if it rolls back).
 * Like `afterCommit`, only a transaction run by `withTx` announces it, on the handle it was run on.
 */
export function noteForCommit(tx: Tx, topic: string): void {
  const noted = notes.get(tx);
  if (noted) noted.add(topic);
  else notes.set(tx, new Set([topic]));
}

function announceNotes(db: Db, tx: Tx): void {
  const noted = notes.get(tx);
  if (!noted) return;
  notes.delete(tx);
  const listeners = (db as ListenedDb)[LISTENERS];
  for (const topic of noted) listeners?.announce(topic);
}

/** Deadlocks this process has met (each one retried): with the lock order above it stays 0. */
export const txRetries = { deadlocks: 0 };

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
