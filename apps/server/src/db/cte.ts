import { type SQL, sql } from 'drizzle-orm';

/**
 * One named part of a statement that writes several tables at once: `name AS (query)` in its WITH list. A
 * money mechanic hands out its write as parts, so the same SQL runs alone for one row and folded into a bigger
 * write (the payment's) for a set of rows. PostgreSQL runs every data-modifying part exactly once, on one
 * snapshot, whether or not a later part reads its RETURNING rows.
 */
export interface CtePart {
  name: string;
  query: SQL;
}

/** `WITH part1 AS (…), part2 AS (…) <tail>`. */
export function withParts(parts: readonly CtePart[], tail: SQL): SQL {
  if (parts.length === 0) return tail;
  const list = sql.join(
    parts.map((part) => sql`${sql.identifier(part.name)} as (${part.query})`),
    sql`, `,
  );
  return sql`with ${list} ${tail}`;
}
