import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Distinct query texts that get a name; the rest (rare shapes past the cap) run unnamed, as before. */
const MAX_NAMED = 2_000;

/**
 * Starts a query whose best plan depends on its values (a LIKE pattern, a text's grams): it is never named,
 * so PostgreSQL plans it for each call's values. A cached generic plan cannot read a LIKE 'x%' range from an
 * index and guesses every pattern's selectivity alike: search's hashtag look went from 31 to 110 ms when
 * PostgreSQL switched to it after five calls (ADR 0150).
 */
export const PLAN_PER_VALUE = '/* plan per value */';

/**
 * Gives every parameterised query a name derived from its text, so each pooled connection parses and plans
 * a query shape once and reuses it (PostgreSQL switches to a cached generic plan when it is as good): most of
 * our queries take longer to plan than to run. The SQL and its parameters are unchanged, only the protocol
 * differs. A name is the hash of the text, so one name never means two statements.
 */
export function nameRepeatedStatements(pool: pg.Pool): void {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    if (text.startsWith(PLAN_PER_VALUE)) return undefined;
    const known = names.get(text);
    if (known || names.size >= MAX_NAMED) return known;
    const name = `q${createHash('sha1').update(text).digest('base64url')}`;
    names.set(text, name);
    return name;
  };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const named = (...args: unknown[]) => {
      const [config, values] = args;
      // Called as (text, values, …) by pg-pool and as ({ text, … }, values) by drizzle.
      if (typeof config === 'string' && hasValues(values)) {
        const name = nameOf(config);
        if (name) return query({ name, text: config }, ...args.slice(1));
      }
      if (isUnnamedConfig(config) && (hasValues(config.values) || hasValues(values))) {
        const name = nameOf(config.text);
        if (name) return query({ ...config, name }, ...args.slice(1));
      }
      return query(...args);
    };
    client.query = named as typeof client.query;
  });
}

const hasValues = (values: unknown): values is unknown[] => Array.isArray(values) && values.length > 0;

function isUnnamedConfig(config: unknown): config is { text: string; values?: unknown[] } {
  if (!config || typeof config !== 'object') return false;
  const c = config as { text?: unknown; name?: unknown; submit?: unknown };
  // A Query or Cursor object (it has submit) is passed through untouched.
  return typeof c.text === 'string' && !c.name && !c.submit;
}
