import { and, eq } from 'drizzle-orm';
import { customers, purchases, refundPayouts, statements } from '../../db/schema';
import type { Tx } from '../../db/tx';
import { recordEvent } from '../../events/record-event';
import { repaidOnTime, revokeGradePoints, saveGrade } from '../bills/grade-points';
import { recomputeSuspension } from '../bills/statements';
import { lockedPointBalance, POINT_REASONS, postPoints } from '../points/ledger';

/**
 * docs/rules/payments.md#P14–P16, inside the merchant's refund transaction (the customer and request rows are already
 * locked): the purchase becomes REFUNDED; unpaid, it simply leaves the bills; already repaid, a payout to the linked
 * account is recorded and the grade points its on-time repayment earned are taken back. Points used come back; points
 * earned are taken back as far as the balance allows, so it never goes negative.
 */
export async function refundPurchaseOfRequest(tx: Tx, requestId: string, now: Date): Promise<void> {
  const [purchase] = await tx.select().from(purchases).where(eq(purchases.requestId, requestId)).for('update');
  if (!purchase || purchase.status === 'REFUNDED') return;
  const wasRepaid = purchase.status === 'PAID';
  await tx.update(purchases).set({ status: 'REFUNDED', refundedAt: now }).where(eq(purchases.id, purchase.id));
  // Refunding the last unpaid line of an overdue statement lifts the suspension, as a repayment would.
  if (!wasRepaid) await recomputeSuspension(tx, purchase.customerId, now);

  // The customer row is already locked by the caller (lock order, db/tx.ts).
  const [customer] = await tx.select().from(customers).where(eq(customers.id, purchase.customerId));
  if (wasRepaid && purchase.paidAt && customer) {
    await revokeRepaymentGrade(tx, customer, purchase, purchase.paidAt, now);
  }
  if (wasRepaid && purchase.price > 0 && customer) {
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
  let pointsTakenBack = 0;
  if (purchase.pointUsed > 0) {
    await postPoints(tx, {
      ...ref,
      amount: purchase.pointUsed,
      reason: POINT_REASONS.paymentCancel,
      idempotencyKey: `purchase:${purchase.id}:refund-use`,
    });
  }
  if (purchase.pointEarned > 0) {
    const takeBack = Math.min(purchase.pointEarned, await lockedPointBalance(tx, purchase.customerId));
    if (takeBack > 0) {
      pointsTakenBack = takeBack;
      await postPoints(tx, {
        ...ref,
        amount: -takeBack,
        reason: POINT_REASONS.earnCancel,
        idempotencyKey: `purchase:${purchase.id}:refund-earn`,
      });
    }
  }
  await recordEvent(
    tx,
    {
      type: 'payment.refunded',
      customerId: purchase.customerId,
      paymentId: purchase.id,
      requestId,
      merchantId: purchase.merchantId,
      price: purchase.price,
      payout: wasRepaid ? purchase.price : 0,
      pointsReturned: purchase.pointUsed,
      pointsTakenBack,
    },
    now,
  );
}

/** Takes back the grade points the line's on-time repayment earned (docs/rules/payments.md#P15). */
async function revokeRepaymentGrade(
  tx: Tx,
  customer: typeof customers.$inferSelect,
  purchase: typeof purchases.$inferSelect,
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
