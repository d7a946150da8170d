import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { fieldsOf, statementBatcher } from './batch-sql';

/**
 * Validate's read (ADR 0109): validates that arrive together share one statement,
 * `payment_validate_read_batch` (migration 0013).
 */

export interface ValidateReadItem {
  customerId: number;
  codeType: 'pincode' | 'qrcode';
  /** The PIN or QR token; null for a malformed code, which matches nothing. */
  code: string | null;
  now: Date;
  month: string;
  /** The customer's and the IP's failed-code counters: key and the start of the current window. */
  failures: { key: string; start: Date };
  ipFailures: { key: string; start: Date };
}

/** The request a code points at, when this customer already holds it (`expiresAt`: a Date from a row, an ISO string from JSON). */
export type HeldRequest = { id: string; requestName: string; totalPrice: number; expiresAt: Date | string };

export interface ValidateSeen {
  /** Either failed-code counter is at its limit. */
  over: boolean;
  suspended: boolean;
  pointBalance: number;
  gradePoint: number;
  /** This month's unpaid total. */
  owed: number;
  held: HeldRequest | null;
}

type Row = {
  item: number;
  over: boolean;
  suspended: boolean;
  point_balance: number;
  grade_point: number;
  owed: string;
  held: HeldRequest | null;
};

/** `limits`: failures per customer and per IP that close their windows. */
export function createValidateStore(db: Db, limits: { failures: number; ipFailures: number }) {
  const statement = (items: readonly ValidateReadItem[]): SQL => {
    const field = fieldsOf(items);
    return sql`select * from payment_validate_read_batch(${field((i) => i.customerId)}::int[],
      ${field((i) => i.codeType)}::text[], ${field((i) => i.code)}::text[],
      ${field((i) => i.now.toISOString())}::timestamptz[], ${field((i) => i.month)}::text[],
      ${field((i) => i.failures.key)}::text[], ${field((i) => i.failures.start.toISOString())}::timestamptz[],
      ${field((i) => i.ipFailures.key)}::text[], ${field((i) => i.ipFailures.start.toISOString())}::timestamptz[],
      ${limits.failures}::int, ${limits.ipFailures}::int)`;
  };
  const reads = statementBatcher<ValidateReadItem, Row, ValidateSeen | undefined>(db, statement, (row) =>
    row
      ? {
          over: row.over,
          suspended: row.suspended,
          pointBalance: row.point_balance,
          gradePoint: row.grade_point,
          owed: Number(row.owed),
          held: row.held,
        }
      : undefined,
  );
  return { read: (item: ValidateReadItem) => reads.run(item) };
}
