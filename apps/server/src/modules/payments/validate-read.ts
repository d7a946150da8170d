import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { anyOverSql } from '../../db/rate-limit-counters';
import { customers, paymentRequests } from '../../db/schema';
import type { Window } from '../../lib/rate-limit';
import { owedSql } from '../bills/statements';
import { usableRequestSql } from './usable-request';

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
 * Validate's one read, no locks: whether a failed-code window is closed (`anyOverSql`), the customer's
 * suspension, points, grade and this month's owed sum (`owedSql`), and the request `match` points at if this
 * customer already holds it and it is usable (a reopened sheet, a scanner seeing the code twice), which then
 * needs no write. Undefined when the customer does not exist.
 */
export async function readValidate(
  db: Db,
  {
    customerId,
    match,
    now,
    month,
    windows,
  }: {
    customerId: number;
    /** The condition a code is looked up by; undefined for a malformed code, which matches nothing. */
    match: SQL | undefined;
    now: Date;
    month: string;
    windows: Window[];
  },
): Promise<ValidateSeen | undefined> {
  const held = match
    ? sql<HeldRequest | null>`(select json_build_object('id', ${paymentRequests.id}, 'requestName',
        ${paymentRequests.requestName}, 'totalPrice', ${paymentRequests.totalPrice}, 'expiresAt',
        ${paymentRequests.expiresAt}) from ${paymentRequests}
        where ${and(match, usableRequestSql(now), eq(paymentRequests.reservedBy, customerId))} limit 1)`
    : sql<null>`null::json`;
  const [row] = await db
    .select({
      over: anyOverSql(windows, now),
      suspended: customers.suspended,
      staffSuspended: customers.staffSuspended,
      pointBalance: customers.pointBalance,
      gradePoint: customers.gradePoint,
      creditLimit: customers.creditLimit,
      owed: owedSql(customerId, month),
      held,
    })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row && { ...row, owed: Number(row.owed) };
}
