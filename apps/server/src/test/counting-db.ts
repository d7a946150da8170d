import type { Db } from '../db/client';

/** The `db` methods that each start one statement. */
const STARTS = new Set<PropertyKey>(['select', 'insert', 'update', 'delete', 'execute']);

/**
 * A `db` that counts the statements started through it (each `select`, `insert`, `update`, `delete` or
 * `execute` call), for tests that pin how many round trips a service spends. Reset `counter.statements`
 * between the calls compared.
 */
export function countingDb(db: Db): { db: Db; counter: { statements: number } } {
  const counter = { statements: 0 };
  const proxy = new Proxy(db, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (STARTS.has(prop)) counter.statements += 1;
        return value.apply(target, args);
      };
    },
  });
  return { db: proxy, counter };
}
