import type { ValidateBody } from '@ohgood/contract/payments';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { anyAtLimitSql } from '../../db/rate-limit-counters';
import { customers, paymentRequests } from '../../db/schema';
import { builtOnce } from '../../db/tx';
import { type Window, windowStart } from '../../lib/rate-limit';
import { owedSql } from '../bills/statements';
import { codeMatch, usableRequestSql } from './usable-request';

/** The request a code points at, when this customer already holds it (`expiresAt`: a Date, or an ISO string from JSON). */
export type HeldRequest = { id: string; requestName: string; totalPrice: number; expiresAt: Date | string };

export interface ValidateSeen {
  /** Either failed-code window is at its limit. */
  over: boolean;
  suspended: boolean;
  /** An operator's suspension, told in its own words (the rest is an overdue bill's). */
  staffSuspended: boolean;
  pointBalance: number;
  gradePoint: number;
  /** Risk's limit under the grade's, if set (docs/rules/operations.md#O8). */
  creditLimit: number | null;
  /** This month's unpaid total. */
  owed: number;
  held: HeldRequest | null;
}

/**
 * Validate's one read, no locks: whether a failed-code window is closed (`anyAtLimitSql`), the customer's
 * suspension, points, grade and this month's owed sum (`owedSql`), and the request the code points at if this
 * customer already holds it and it is usable (a reopened sheet, a scanner seeing the code twice), which then
 * needs no write. Undefined when the customer does not exist.
 *
 * Built once per code type and number of windows (`builtOnce`): validate comes with every payment, and
 * building this statement's text was a fifth of the server's time per validate (docs/performance.md).
 */
export async function readValidate(
  db: Db,
  {
    customerId,
    codeType,
    code,
    now,
    month,
    windows,
  }: {
    customerId: number;
    codeType: ValidateBody['codeType'];
    /** The value the code is looked up by; undefined for a malformed code, which matches nothing. */
    code: string | undefined;
    now: Date;
    month: string;
    windows: Window[];
  },
): Promise<ValidateSeen | undefined> {
  const values: Record<string, unknown> = { customerId, code, now, month };
  windows.forEach((w, i) => {
    values[`key${i}`] = w.key;
    values[`start${i}`] = windowStart(now, w.windowMs);
    values[`limit${i}`] = w.limit;
  });
  const read = statementFor(code === undefined ? 'none' : codeType, windows.length);
  const [row] = await read(db, values);
  return row && { ...row, owed: Number(row.owed) };
}

type ValidateRow = Omit<ValidateSeen, 'owed'> & { owed: string };
type ValidateStatement = ReturnType<typeof builtOnce<ValidateRow>>;

const statements = new Map<string, ValidateStatement>();

/** The read for a code type ('none': a malformed code) and a number of windows, built on its first use. */
function statementFor(kind: ValidateBody['codeType'] | 'none', windowCount: number): ValidateStatement {
  const shape = `${kind}/${windowCount}`;
  let statement = statements.get(shape);
  if (!statement) {
    statement = builtOnce<ValidateRow>(validateSql(kind, windowCount));
    statements.set(shape, statement);
  }
  return statement;
}

function validateSql(kind: ValidateBody['codeType'] | 'none', windowCount: number): SQL {
  const customerId = sql.placeholder('customerId');
  const now = sql.placeholder('now');
  const match = kind === 'none' ? undefined : codeMatch(kind, sql.placeholder('code'));
  const held = match
    ? sql`(select json_build_object('id', ${paymentRequests.id}, 'requestName', ${paymentRequests.requestName},
        'totalPrice', ${paymentRequests.totalPrice}, 'expiresAt', ${paymentRequests.expiresAt}) from ${paymentRequests}
        where ${and(match, usableRequestSql(now), eq(paymentRequests.reservedBy, customerId))} limit 1)`
    : sql`null::json`;
  const bounds = Array.from({ length: windowCount }, (_, i) => ({
    key: sql.placeholder(`key${i}`),
    start: sql.placeholder(`start${i}`),
    limit: sql.placeholder(`limit${i}`),
  }));
  return sql`select ${anyAtLimitSql(bounds)} as "over", ${customers.suspended} as "suspended",
      ${customers.staffSuspended} as "staffSuspended", ${customers.pointBalance} as "pointBalance",
      ${customers.gradePoint} as "gradePoint", ${customers.creditLimit} as "creditLimit",
      ${owedSql(customerId, sql.placeholder('month'))} as "owed", ${held} as "held"
    from ${customers} where ${customers.id} = ${customerId}`;
}
