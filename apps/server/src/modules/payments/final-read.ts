import type { FinalResult } from '@ohgood/contract/payments';
import { and, eq, sql } from 'drizzle-orm';
import { lockCustomerIfAny } from '../../db/locks';
import { idempotencyKeys, paymentRequests } from '../../db/schema';
import { rowsOf, type Tx } from '../../db/tx';
import { owedSql } from '../bills/statements';
import { FINAL_SCOPE } from './payment-write';

/** An answer stored for a final, with the hash of the call it answered (null for a request's own answer). */
export type StoredAnswer = { response: FinalResult; requestHash: string | null };

/** The request as a final sees it (locked). */
export interface FinalRequest {
  id: string;
  status: string;
  reservedBy: number | null;
  expiresAt: Date;
  totalPrice: number;
  merchantId: number;
  requestName: string;
}

/** What a final decides on, read under the locks it then writes under. */
export interface FinalSeen {
  suspended: boolean;
  /** An operator's suspension, told in its own words (the rest is an overdue bill's). */
  staffSuspended: boolean;
  pointBalance: number;
  gradePoint: number;
  /** Risk's limit under the grade's, if set (docs/rules/operations.md#O8). */
  creditLimit: number | null;
  /** This month's unpaid total. */
  owed: number;
  request: FinalRequest | null;
  /** The answer stored for this request's final (a replay). */
  requestAnswer: StoredAnswer | null;
  /** The answer stored under the caller's Idempotency-Key. */
  callerAnswer: StoredAnswer | null;
  /** The id the purchase gets if the final pays. */
  paymentId: number;
}

type Row = {
  owed: string;
  payment_id: number;
  request: (Omit<FinalRequest, 'expiresAt'> & { expiresAt: string }) | null;
  request_answer: StoredAnswer | null;
  caller_answer: StoredAnswer | null;
};

/**
 * A final's read, in its transaction and in the lock order of db/tx.ts: the customer's row first (locked), then
 * in a second statement (so its snapshot comes after that lock, and counts every payment of this customer
 * committed before it) the request (locked), this month's owed sum, the stored answers and the id the purchase
 * would get. Undefined when the customer does not exist. What it reads cannot change before the transaction
 * ends: every path that changes it takes the customer's lock first.
 */
export async function readFinal(
  tx: Tx,
  {
    customerId,
    requestId,
    month,
    callerKey,
  }: { customerId: number; requestId: string; month: string; callerKey: string | null },
): Promise<FinalSeen | undefined> {
  const customer = await lockCustomerIfAny(tx, customerId);
  if (!customer) return undefined;
  const answer = (key: string | null) =>
    sql`(select json_build_object('response', ${idempotencyKeys.response}, 'requestHash', ${idempotencyKeys.requestHash})
      from ${idempotencyKeys} where ${and(
        eq(idempotencyKeys.customerId, customerId),
        eq(idempotencyKeys.scope, FINAL_SCOPE),
        eq(idempotencyKeys.key, key ?? ''),
      )})`;
  const [row] = await rowsOf<Row>(
    tx,
    sql`select ${owedSql(customerId, month)} as owed,
        nextval(pg_get_serial_sequence('purchases', 'id'))::int as payment_id,
        r.request, ${answer(`request:${requestId}`)} as request_answer,
        ${callerKey ? answer(callerKey) : sql`null::json`} as caller_answer
      from (values (1)) as one (x)
      left join lateral (
        select json_build_object('id', ${paymentRequests.id}, 'status', ${paymentRequests.status},
          'reservedBy', ${paymentRequests.reservedBy}, 'expiresAt', ${paymentRequests.expiresAt},
          'totalPrice', ${paymentRequests.totalPrice}, 'merchantId', ${paymentRequests.merchantId},
          'requestName', ${paymentRequests.requestName}) as request
        from ${paymentRequests} where ${paymentRequests.id} = ${requestId}::uuid for update
      ) r on true`,
  );
  if (!row) throw new Error('final read answered no row');
  return {
    suspended: customer.suspended,
    staffSuspended: customer.staffSuspended,
    pointBalance: customer.pointBalance,
    gradePoint: customer.gradePoint,
    creditLimit: customer.creditLimit,
    owed: Number(row.owed),
    request: row.request && { ...row.request, expiresAt: new Date(row.request.expiresAt) },
    requestAnswer: row.request_answer,
    callerAnswer: row.caller_answer,
    paymentId: row.payment_id,
  };
}
