import { type SQL, sql } from 'drizzle-orm';
import { badRequest } from '../../../lib/errors';

/**
 * Keyset paging for the console's lists (docs/rules/operations.md#O16): a page is the rows after the last one
 * the previous page showed, by a tuple of columns that is unique per row (its last column is a row id). No
 * OFFSET, so a row inserted or removed between two pages never makes another row show twice or go missing.
 */

/** A key column of the inner query, with the SQL type its cursor value is cast back to. */
export interface KeyColumn {
  name: string;
  type: 'bigint' | 'text';
}

export const SORT_AND_ID: readonly KeyColumn[] = [
  { name: 'sort_value', type: 'bigint' },
  { name: 'row_id', type: 'bigint' },
];

type KeyValue = string | number;

const invalidCursor = () => badRequest('INVALID_CURSOR', '목록 위치가 올바르지 않습니다. 처음부터 다시 조회해 주세요.');

export function encodeCursor(values: readonly KeyValue[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** The cursor's values, one per key column; anything else (forged, from another list) is a 400. */
export function decodeCursor(cursor: string, keys: readonly KeyColumn[]): KeyValue[] {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(values) || values.length !== keys.length) throw invalidCursor();
  return values.map((value, i) => {
    const key = keys[i] as KeyColumn;
    if (
      key.type === 'bigint' &&
      !(typeof value === 'string' ? /^-?\d{1,19}$/.test(value) : Number.isSafeInteger(value))
    )
      throw invalidCursor();
    if (key.type === 'text' && (typeof value !== 'string' || value.length > 40)) throw invalidCursor();
    return value as KeyValue;
  });
}

export interface KeysetPage<R> {
  rows: R[];
  nextCursor: string | null;
}

/**
 * One page of `inner` (a select whose columns include the key columns), ordered by `keys` in `dir`, after
 * `cursor`. The caller's filters belong inside `inner`, so a page never leaks a row outside them.
 */
export async function keysetPage<R extends Record<string, unknown>>(
  run: (query: SQL) => Promise<R[]>,
  inner: SQL,
  options: { keys: readonly KeyColumn[]; dir: 'asc' | 'desc'; cursor?: string; limit: number },
): Promise<KeysetPage<R>> {
  const { keys, dir, limit } = options;
  const columns = sql.join(
    keys.map((key) => sql.raw(`t.${key.name}`)),
    sql`, `,
  );
  const after = options.cursor
    ? sql`where (${columns}) ${sql.raw(dir === 'desc' ? '<' : '>')} (${sql.join(
        decodeCursor(options.cursor, keys).map(
          (value, i) => sql`${String(value)}::${sql.raw(keys[i]?.type ?? 'text')}`,
        ),
        sql`, `,
      )})`
    : sql``;
  const order = sql.join(
    keys.map((key) => sql.raw(`t.${key.name} ${dir}`)),
    sql`, `,
  );
  const rows = await run(sql`select * from (${inner}) t ${after} order by ${order} limit ${limit + 1}`);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    rows: page,
    nextCursor:
      rows.length > limit && last ? encodeCursor(keys.map((key) => String(last[key.name] as KeyValue))) : null,
  };
}
