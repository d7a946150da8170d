import { kstDate } from '@ohgood/contract/kst';
import type { PointReason } from '@ohgood/contract/point-reasons';
import { and, eq, sql } from 'drizzle-orm';
import { customers, pointLedger } from '../../db/schema';
import { rowsOf, type Tx } from '../../db/tx';
import { recordEvent } from '../../events/record-event';

/** The reason code each writer stores (the contract's enum; labels are the edge's, `POINT_REASON_LABELS`). */
export const POINT_REASONS = {
  paymentEarn: 'PURCHASE_EARN',
  paymentUse: 'PURCHASE_USE',
  checkin: 'CHECKIN_ROULETTE',
  shortsWatch: 'WATCH_REWARD',
  paymentCancel: 'REFUND_USE_RETURN',
  earnCancel: 'REFUND_EARN_CANCEL',
} as const satisfies Record<string, PointReason>;

export interface PointEntry {
  customerId: number;
  /** Signed: positive credits, negative debits. */
  amount: number;
  reason: PointReason;
  refType: 'purchase' | 'checkin' | 'short' | 'refund';
  refId: string;
  /** Unique per business event, so a retried write is a no-op. */
  idempotencyKey: string;
  at: Date;
}

/**
 * The only way points change: one immutable ledger row and the balance, in the caller's transaction.
 * The balance's CHECK constraint makes an overdraft fail the whole transaction (an unknown customer fails the
 * ledger's foreign key). Returns the new balance, or null when this idempotency key was already written
 * (nothing changed).
 */
export async function postPoints(tx: Tx, entry: PointEntry): Promise<number | null> {
  if (!Number.isSafeInteger(entry.amount) || entry.amount === 0)
    throw new Error('point amount must be a non-zero integer');
  const entryRow = tx
    .insert(pointLedger)
    .values({
      customerId: entry.customerId,
      amount: entry.amount,
      reason: entry.reason,
      refType: entry.refType,
      refId: entry.refId,
      kstDate: kstDate(entry.at),
      idempotencyKey: entry.idempotencyKey,
      createdAt: entry.at,
    })
    .onConflictDoNothing({ target: pointLedger.idempotencyKey })
    .returning({ id: pointLedger.id });
  // One round trip: the balance moves only when the ledger row was written (a replayed key writes neither).
  const balance = tx
    .update(customers)
    .set({ pointBalance: sql`${customers.pointBalance} + ${entry.amount}` })
    .where(and(eq(customers.id, entry.customerId), sql`exists (select 1 from entry)`))
    .returning({ balance: customers.pointBalance });
  const [row] = await rowsOf<{ point_balance: number }>(
    tx,
    sql`with entry as (${entryRow.getSQL()}) ${balance.getSQL()}`,
  );
  if (!row) return null;
  const { customerId, amount, reason, refType, refId } = entry;
  await recordEvent(
    tx,
    { type: 'points.posted', customerId, amount, reason, refType, refId, balance: row.point_balance },
    entry.at,
  );
  return row.point_balance;
}

/** Locks the customer row and returns the spendable balance (call before a debit decision). */
export async function lockedPointBalance(tx: Tx, customerId: number): Promise<number> {
  const rows = await tx
    .select({ balance: customers.pointBalance })
    .from(customers)
    .where(eq(customers.id, customerId))
    .for('update');
  return rows[0]?.balance ?? 0;
}
