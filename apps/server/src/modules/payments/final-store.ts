import type { FinalResult } from '@ohgood/contract/payments';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { POINT_REASONS } from '../points/ledger';
import { fieldsOf, statementBatcher } from './batch-sql';

/**
 * The database half of payment finals (ADR 0109): the read each final decides on, and the write of what it
 * decided. Finals that are ready at the same time share one statement for their reads and one for their
 * writes (`batch-sql.ts`); a lone final still runs at once, as one read and one write.
 */

export const FINAL_SCOPE = 'payment-final';

/** An answer stored under an Idempotency-Key, with the hash of the call it answered. */
export type StoredAnswer = { response: FinalResult; requestHash: string | null };

export interface FinalReadItem {
  customerId: number;
  requestId: string;
  /** The KST month whose unpaid lines count against the limit. */
  month: string;
  /** `key:<Idempotency-Key>` when the caller sent one. */
  callerKey: string | null;
}

/** What one final decides on; undefined when the customer does not exist. No locks: the write re-checks it. */
export interface FinalSeen {
  suspended: boolean;
  pointBalance: number;
  gradePoint: number;
  /** This month's unpaid total. */
  owed: number;
  request: { status: string; reservedBy: number | null; expiresAt: Date; totalPrice: number } | null;
  /** The answer stored for this request's final (a replay). */
  requestAnswer: StoredAnswer | null;
  /** The answer stored under the caller's Idempotency-Key. */
  callerAnswer: StoredAnswer | null;
}

/** One decided payment: what was read (`seen*`, checked again under lock) and what to write. */
export interface FinalApplyItem {
  customerId: number;
  requestId: string;
  totalPrice: number;
  now: Date;
  kstDate: string;
  month: string;
  seenBalance: number;
  seenGradePoint: number;
  seenOwed: number;
  pointUsed: number;
  pointEarned: number;
  /** The answer without its paymentId, which the write assigns. */
  response: Omit<FinalResult, 'paymentId'>;
  callerKey: string | null;
  requestHash: string | null;
}

/** `stale`: something read changed, read and decide again. `key_taken`: a concurrent call stored the key. */
export type FinalApplied = { outcome: 'applied'; paymentId: number } | { outcome: 'stale' | 'key_taken' };

export interface FinalStore {
  read(item: FinalReadItem): Promise<FinalSeen | undefined>;
  apply(item: FinalApplyItem): Promise<FinalApplied>;
}

type ReadRow = {
  item: number;
  suspended: boolean;
  point_balance: number;
  grade_point: number;
  owed: string;
  status: string | null;
  reserved_by: number | null;
  expires_at: Date | null;
  total_price: number | null;
  request_answer: StoredAnswer | null;
  caller_answer: StoredAnswer | null;
};

function readSql(items: readonly FinalReadItem[]): SQL {
  const field = fieldsOf(items);
  return sql`select * from payment_final_read_batch(${field((i) => i.customerId)}::int[],
    ${field((i) => i.requestId)}::uuid[], ${field((i) => i.month)}::text[], ${field((i) => i.callerKey)}::text[],
    ${FINAL_SCOPE})`;
}

function seenOf(row: ReadRow): FinalSeen {
  return {
    suspended: row.suspended,
    pointBalance: row.point_balance,
    gradePoint: row.grade_point,
    owed: Number(row.owed),
    request:
      row.status === null || row.expires_at === null || row.total_price === null
        ? null
        : {
            status: row.status,
            reservedBy: row.reserved_by,
            expiresAt: new Date(row.expires_at),
            totalPrice: row.total_price,
          },
    requestAnswer: row.request_answer,
    callerAnswer: row.caller_answer,
  };
}

function applySql(items: readonly FinalApplyItem[]): SQL {
  const field = fieldsOf(items);
  return sql`select item, outcome, payment_id from payment_final_apply_batch(
      ${field((i) => i.customerId)}::int[], ${field((i) => i.requestId)}::uuid[],
      ${field((i) => i.totalPrice)}::int[], ${field((i) => i.now.toISOString())}::timestamptz[],
      ${field((i) => i.kstDate)}::date[], ${field((i) => i.month)}::text[],
      ${field((i) => i.seenBalance)}::int[], ${field((i) => i.seenGradePoint)}::int[],
      ${field((i) => i.seenOwed)}::bigint[], ${field((i) => i.pointUsed)}::int[],
      ${field((i) => i.pointEarned)}::int[], ${field((i) => JSON.stringify(i.response))}::jsonb[],
      ${field((i) => i.callerKey)}::text[], ${field((i) => i.requestHash)}::text[],
      ${POINT_REASONS.paymentUse}, ${POINT_REASONS.paymentEarn}, ${FINAL_SCOPE})`;
}

type ApplyRow = { item: number; outcome: 'applied' | 'stale' | 'key_taken'; payment_id: number | null };

export function createFinalStore(db: Db): FinalStore {
  const reads = statementBatcher<FinalReadItem, ReadRow, FinalSeen | undefined>(db, readSql, (row) =>
    row ? seenOf(row) : undefined,
  );
  const applies = statementBatcher<FinalApplyItem, ApplyRow, FinalApplied>(db, applySql, (row, index) => {
    if (!row) throw new Error(`payment_final_apply_batch gave no outcome for item ${index + 1}`);
    if (row.outcome !== 'applied') return { outcome: row.outcome };
    if (row.payment_id === null) throw new Error(`payment_final_apply_batch applied item ${index + 1} without an id`);
    return { outcome: 'applied', paymentId: row.payment_id };
  });
  return {
    read: (item) => reads.run(item),
    apply: (item) => applies.run(item),
  };
}
