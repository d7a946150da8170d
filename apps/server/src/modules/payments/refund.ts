import type { DomainEvent } from '@ohgood/contract/domain-events';
import { and, eq, sql } from 'drizzle-orm';
import { CUSTOMER_LOCK } from '../../db/locks';
import { customers, purchases, refundPayouts, statements } from '../../db/schema';
import { rowsOf, type Tx } from '../../db/tx';
import { recordEvents } from '../../events/record-event';
import { repaidOnTime, revokeGradePoints, saveGrade } from '../bills/grade-points';
import { recomputeSuspension } from '../bills/statements';
import { movePoints, POINT_REASONS } from '../points/ledger';

type Customer = typeof customers.$inferSelect;

/** The refunded purchase as its refund needs it, with its status before. */
interface RefundedPurchase {
  id: number;
  customerId: number;
  merchantId: number;
  price: number;
  pointUsed: number;
  pointEarned: number;
  statementMonth: string;
  paidAt: Date | null;
  wasRepaid: boolean;
}

/** The row of the customer who bought through the request, locked (step 1 of the lock order, db/tx.ts). */
async function lockBuyerOf(tx: Tx, requestId: string): Promise<Customer | undefined> {
  const buyer = sql`(select p.customer_id from ${purchases} p where p.request_id = ${requestId})`;
  const [customer] = await tx.select().from(customers).where(eq(customers.id, buyer)).for(CUSTOMER_LOCK);
  return customer;
}

/**
 * Marks the request's purchase REFUNDED in one statement that locks it (after the request: lock order, db/tx.ts)
 * and answers it with its status before; undefined when there is none or it is refunded already.
 */
async function markPurchaseRefunded(tx: Tx, requestId: string, now: Date): Promise<RefundedPurchase | undefined> {
  const [row] = await rowsOf<{
    id: number;
    customer_id: number;
    merchant_id: number;
    price: number;
    point_used: number;
    point_earned: number;
    statement_month: string;
    paid_at: Date | string | null;
    was_status: string;
  }>(
    tx,
    sql`update ${purchases} p set status = 'REFUNDED', refunded_at = ${now}
      from (select id, status from ${purchases} where request_id = ${requestId} for update) old
      where p.id = old.id and old.status <> 'REFUNDED'
      returning p.id, p.customer_id, p.merchant_id, p.price, p.point_used, p.point_earned, p.statement_month,
        p.paid_at, old.status as was_status`,
  );
  if (!row) return undefined;
  return {
    id: row.id,
    customerId: row.customer_id,
    merchantId: row.merchant_id,
    price: row.price,
    pointUsed: row.point_used,
    pointEarned: row.point_earned,
    statementMonth: row.statement_month,
    paidAt: row.paid_at === null ? null : new Date(row.paid_at),
    wasRepaid: row.was_status === 'PAID',
  };
}

/**
 * docs/rules/payments.md#P14–P16, inside the merchant's refund transaction (`payer` is the paying customer's row
 * as the caller's lock read it, and the request is locked; without it, the purchase's customer is locked here
 * first): the purchase becomes REFUNDED; unpaid, it simply leaves the
 * bills; already repaid, a payout to the linked account is recorded and the grade points its on-time repayment
 * earned are taken back. Points used come back; points earned are taken back as far as the balance allows, so it
 * never goes negative. Its events are recorded together, in one insert.
 */
export async function refundPurchaseOfRequest(tx: Tx, requestId: string, now: Date, payer?: Customer): Promise<void> {
  const customer = payer ?? (await lockBuyerOf(tx, requestId));
  if (!customer) return;
  const purchase = await markPurchaseRefunded(tx, requestId, now);
  if (!purchase) return;
  if (purchase.customerId !== customer.id) throw new Error('refund of a purchase of another customer than the payer');
  const { wasRepaid } = purchase;
  // Refunding the last unpaid line of an overdue statement lifts the suspension, as a repayment would.
  if (!wasRepaid) await recomputeSuspension(tx, purchase.customerId, now);
  if (wasRepaid && purchase.paidAt) await revokeRepaymentGrade(tx, customer, purchase, purchase.paidAt, now);
  if (wasRepaid && purchase.price > 0) {
    await tx.insert(refundPayouts).values({
      purchaseId: purchase.id,
      customerId: purchase.customerId,
      amount: purchase.price,
      account: customer.account,
      accountName: customer.accountName,
      createdAt: now,
    });
  }

  const ref = { customerId: purchase.customerId, refType: 'refund' as const, refId: String(purchase.id), at: now };
  const events: DomainEvent[] = [];
  // The balance as locked; only this refund's own return of points used moves it before the take-back.
  let balance = customer.pointBalance;
  if (purchase.pointUsed > 0) {
    const returned = await movePoints(tx, {
      ...ref,
      amount: purchase.pointUsed,
      reason: POINT_REASONS.paymentCancel,
      idempotencyKey: `purchase:${purchase.id}:refund-use`,
    });
    if (returned) {
      balance = returned.balance;
      events.push(returned.event);
    }
  }
  let pointsTakenBack = 0;
  const takeBack = Math.min(purchase.pointEarned, balance);
  if (takeBack > 0) {
    pointsTakenBack = takeBack;
    const taken = await movePoints(tx, {
      ...ref,
      amount: -takeBack,
      reason: POINT_REASONS.earnCancel,
      idempotencyKey: `purchase:${purchase.id}:refund-earn`,
    });
    if (taken) events.push(taken.event);
  }
  events.push({
    type: 'payment.refunded',
    customerId: purchase.customerId,
    paymentId: purchase.id,
    requestId,
    merchantId: purchase.merchantId,
    price: purchase.price,
    payout: wasRepaid ? purchase.price : 0,
    pointsReturned: purchase.pointUsed,
    pointsTakenBack,
  });
  await recordEvents(tx, events, now);
}

/** Takes back the grade points the line's on-time repayment earned (docs/rules/payments.md#P15). */
async function revokeRepaymentGrade(
  tx: Tx,
  customer: Customer,
  purchase: Pick<RefundedPurchase, 'price' | 'statementMonth'>,
  paidAt: Date,
  now: Date,
): Promise<void> {
  const [statement] = await tx
    .select()
    .from(statements)
    .where(and(eq(statements.customerId, customer.id), eq(statements.month, purchase.statementMonth)));
  if (!statement || !repaidOnTime(statement, paidAt)) return;
  const revoked = revokeGradePoints(customer, purchase.price);
  await saveGrade(tx, customer.id, customer.gradePoint, revoked, 'REFUND', now);
}
