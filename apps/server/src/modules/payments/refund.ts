import { eq } from 'drizzle-orm';
import { customers, purchases, refundPayouts } from '../../db/schema';
import type { Tx } from '../../db/tx';
import { recomputeSuspension } from '../bills/statements';
import { lockedPointBalance, POINT_REASONS, postPoints } from '../points/ledger';

/**
 * Domain §5.4, inside the merchant's refund transaction (the customer and request rows are already locked):
 * the purchase becomes REFUNDED; unpaid, it simply leaves the bills; already repaid, a payout to the
 * linked account is recorded. Points used come back; points earned are taken back as far as the balance
 * allows, so the balance never goes negative.
 */
export async function refundPurchaseOfRequest(tx: Tx, requestId: string, now: Date): Promise<void> {
  const [purchase] = await tx.select().from(purchases).where(eq(purchases.requestId, requestId)).for('update');
  if (!purchase || purchase.status === 'REFUNDED') return;
  const wasRepaid = purchase.status === 'PAID';
  await tx.update(purchases).set({ status: 'REFUNDED', refundedAt: now }).where(eq(purchases.id, purchase.id));
  // Refunding the last unpaid line of an overdue statement lifts the suspension, as a repayment would.
  if (!wasRepaid) await recomputeSuspension(tx, purchase.customerId);

  // The customer row is already locked by the caller (lock order, db/tx.ts).
  const [customer] = await tx
    .select({ account: customers.account, accountName: customers.accountName })
    .from(customers)
    .where(eq(customers.id, purchase.customerId));
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
      await postPoints(tx, {
        ...ref,
        amount: -takeBack,
        reason: POINT_REASONS.earnCancel,
        idempotencyKey: `purchase:${purchase.id}:refund-earn`,
      });
    }
  }
}
