import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../db/client';

/** The `db` methods that each start one statement. */
const STARTS = new Set<PropertyKey>(['select', 'insert', 'update', 'delete', 'execute']);

interface Counter {
  /** Every statement started through the `db`, inside its transactions too. */
  statements: number;
  /** The transactions begun through the `db` (each one two round trips more: its begin and its commit). */
  transactions: number;
  /**
   * The statements `work` started, in its own async context: an app's background work at the same time (the
   * readiness probe's ping every 250 ms) is not counted.
   */
  during(work: () => Promise<unknown>): Promise<number>;
}

/** The tally of the `during` call whose async context a statement starts in. */
const windows = new AsyncLocalStorage<{ statements: number }>();

function counted(counter: Counter): void {
  counter.statements += 1;
  const window = windows.getStore();
  if (window) window.statements += 1;
}

/** `target` with `prop`'s object (or function's result) passed through `wrap`. */
function wrapping<T extends object>(target: T, prop: PropertyKey, wrap: (value: never) => unknown): T {
  return new Proxy(target, {
    get(object, key) {
      const value = Reflect.get(object, key, object);
      if (key !== prop) return typeof value === 'function' ? value.bind(object) : value;
      if (typeof value !== 'function') return wrap(value as never);
      return (...args: unknown[]) => wrap(value.apply(object, args) as never);
    },
  });
}

/**
 * The session under `db._` with each prepared query's `execute` counted: statements built once
 * (`builtOnce` in db/tx.ts) run through it, not through the methods above.
 */
function countingSession(internals: object, counter: Counter): object {
  const countedExecute = (prepared: object) =>
    wrapping(prepared, 'execute', (result: unknown) => {
      counted(counter);
      return result;
    });
  return wrapping(internals, 'session', (session: object) => wrapping(session, 'prepareQuery', countedExecute));
}

/**
 * A `db` that counts the statements started through it (each `select`, `insert`, `update`, `delete` or
 * `execute` call, and each run of a statement built once), those inside its transactions too, and the
 * transactions, for tests that pin how many round trips a service spends. A builder called only for its SQL,
 * folded into another statement (a point posting's insert as a part of its WITH), counts as one too. Reset the
 * counter's fields between the calls compared, or count one call's statements with `counter.during`.
 */
export function countingDb(db: Db): { db: Db; counter: Counter } {
  const counter: Counter = {
    statements: 0,
    transactions: 0,
    async during(work) {
      const window = { statements: 0 };
      await windows.run(window, work);
      return window.statements;
    },
  };
  const counting = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(inner, prop) {
        const value = Reflect.get(inner, prop, inner);
        if (prop === '_' && value) return countingSession(value as object, counter);
        if (typeof value !== 'function') return value;
        if (prop === 'transaction') {
          return (work: (tx: object) => unknown, ...rest: unknown[]) => {
            counter.transactions += 1;
            return value.call(inner, (tx: object) => work(counting(tx)), ...rest);
          };
        }
        return (...args: unknown[]) => {
          if (STARTS.has(prop)) counted(counter);
          return value.apply(inner, args);
        };
      },
    });
  return { db: counting(db), counter };
}
