import type { DomainEvent } from '@ohgood/contract/domain-events';
import { kstDate } from '@ohgood/contract/kst';
import type { PointReason } from '@ohgood/contract/point-reasons';
import { eq, sql } from 'drizzle-orm';
import { type CtePart, withParts } from '../../db/cte';
import { CUSTOMER_LOCK } from '../../db/locks';
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
 * How points move (docs/rules/points.md), for one entry or many, as parts of one statement: the immutable
 * ledger rows (an idempotency key already written is skipped) and each customer's balance moved by exactly the
 * rows written. `postPoints` runs them alone for one entry; the payment's write folds them into its own
 * statement for its use and earn rows. The balance's CHECK constraint makes an overdraft fail the whole
 * transaction (an unknown customer fails the ledger's foreign key).
 */
export function pointPostingParts(tx: Tx, entries: readonly PointEntry[], name = 'points'): CtePart[] {
  for (const entry of entries) {
    if (!Number.isSafeInteger(entry.amount) || entry.amount === 0)
      throw new Error('point amount must be a non-zero integer');
  }
  const rows = tx
    .insert(pointLedger)
    .values(
      entries.map((entry) => ({
        customerId: entry.customerId,
        amount: entry.amount,
        reason: entry.reason,
        refType: entry.refType,
        refId: entry.refId,
        kstDate: kstDate(entry.at),
        idempotencyKey: entry.idempotencyKey,
        createdAt: entry.at,
      })),
    )
    .onConflictDoNothing({ target: pointLedger.idempotencyKey })
    .returning({ customerId: pointLedger.customerId, amount: pointLedger.amount });
  const written = sql.identifier(`${name}_rows`);
  const moved = sql`update ${customers} set point_balance = ${customers.pointBalance} + m.amount
    from (select customer_id, sum(amount)::int as amount from ${written} group by 1) m
    where ${customers.id} = m.customer_id returning ${customers.id} as customer_id, ${customers.pointBalance}`;
  return [
    { name: `${name}_rows`, query: rows.getSQL() },
    { name: `${name}_moved`, query: moved },
  ];
}

/**
 * One point movement in the caller's transaction (the customer's row locked first, db/tx.ts): its ledger row and
 * the balance, in one statement. Answers the new balance and the `points.posted` event for the caller to record
 * with the fact's others, or null when this idempotency key was already written (nothing changed).
 */
export async function movePoints(tx: Tx, entry: PointEntry): Promise<{ balance: number; event: DomainEvent } | null> {
  const parts = pointPostingParts(tx, [entry]);
  const [row] = await rowsOf<{ point_balance: number }>(
    tx,
    withParts(parts, sql`select point_balance from ${sql.identifier('points_moved')}`),
  );
  if (!row) return null;
  const { customerId, amount, reason, refType, refId, idempotencyKey: key } = entry;
  const balance = row.point_balance;
  return { balance, event: { type: 'points.posted', customerId, amount, reason, refType, refId, balance, key } };
}

/** `movePoints` with its `points.posted` recorded at once. Returns the new balance, or null (nothing changed). */
export async function postPoints(tx: Tx, entry: PointEntry): Promise<number | null> {
  const moved = await movePoints(tx, entry);
  if (!moved) return null;
  await recordEvent(tx, moved.event, entry.at);
  return moved.balance;
}

/** Locks the customer row and returns the spendable balance (call before a debit decision). */
export async function lockedPointBalance(tx: Tx, customerId: number): Promise<number> {
  const rows = await tx
    .select({ balance: customers.pointBalance })
    .from(customers)
    .where(eq(customers.id, customerId))
    .for(CUSTOMER_LOCK);
  return rows[0]?.balance ?? 0;
}
