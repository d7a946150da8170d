import { and, asc, eq, gt, gte, inArray, lte, sql } from 'drizzle-orm';
import { CUSTOMER_LOCK } from '../../db/locks';
import { customers, isActiveRequest, paymentRequests } from '../../db/schema';
import type { Executor, Tx } from '../../db/tx';

/** The SQL of a merchant's payment requests; the reads and actions beside it decide and shape. */

export type RequestRow = typeof paymentRequests.$inferSelect;
type RequestValues = typeof paymentRequests.$inferInsert;

const ofMerchant = (merchantId: number, requestId: string) =>
  and(eq(paymentRequests.id, requestId), eq(paymentRequests.merchantId, merchantId));

/** The merchant's request `requestId`; undefined for another merchant's or a missing one. */
export async function findRequest(db: Executor, merchantId: number, requestId: string) {
  const [row] = await db.select().from(paymentRequests).where(ofMerchant(merchantId, requestId));
  return row;
}

/** The merchant's request for the order `orderId`. */
export async function findOrderRequest(db: Executor, merchantId: number, orderId: string) {
  const [row] = await db
    .select()
    .from(paymentRequests)
    .where(and(eq(paymentRequests.merchantId, merchantId), eq(paymentRequests.orderId, orderId)));
  return row;
}

/** Inserts the request unless its order already has one (then undefined); a held PIN throws its unique violation. */
export async function insertRequest(db: Executor, values: RequestValues): Promise<RequestRow | undefined> {
  const [row] = await db
    .insert(paymentRequests)
    .values(values)
    .onConflictDoNothing({ target: [paymentRequests.merchantId, paymentRequests.orderId] })
    .returning();
  return row;
}

/**
 * Closes up to `limit` ACTIVE requests past their expiry as EXPIRED, at their expiry instant; answers the rows it
 * closed. Rows another transaction holds (a final in progress) are skipped, never waited on: no lock cycles.
 */
export async function expireDueBatch(tx: Tx, now: Date, limit: number) {
  const due = tx
    .select({ id: paymentRequests.id })
    .from(paymentRequests)
    .where(and(isActiveRequest, lte(paymentRequests.expiresAt, now)))
    .orderBy(asc(paymentRequests.expiresAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return tx
    .update(paymentRequests)
    .set({ status: 'EXPIRED', closedAt: sql`${paymentRequests.expiresAt}` })
    .where(and(inArray(paymentRequests.id, due), isActiveRequest))
    .returning({ id: paymentRequests.id, merchantId: paymentRequests.merchantId, at: paymentRequests.expiresAt });
}

/** Cancels the merchant's request if it is still active and not past its expiry; undefined otherwise. */
export async function cancelActive(db: Executor, merchantId: number, requestId: string, now: Date) {
  const [row] = await db
    .update(paymentRequests)
    .set({ status: 'CANCELLED', closedAt: now })
    .where(
      and(
        ofMerchant(merchantId, requestId),
        isActiveRequest,
        // Expiry is the clock's decision: a request past its expiry is EXPIRED, never CANCELLED.
        gt(paymentRequests.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

/**
 * Step 1 of the lock order (db/tx.ts) for a refund: the row of the customer who paid the merchant's request,
 * locked, in one statement with the lookup of the payer (who never changes once the request is PAID).
 * Undefined when the request is missing, another merchant's, or not PAID.
 */
export async function lockPayerOf(tx: Tx, merchantId: number, requestId: string) {
  const paidBy = sql`(select r.reserved_by from ${paymentRequests} r
    where r.id = ${requestId} and r.merchant_id = ${merchantId} and r.status = 'PAID')`;
  const [customer] = await tx.select().from(customers).where(eq(customers.id, paidBy)).for(CUSTOMER_LOCK);
  return customer;
}

/**
 * Marks the merchant's request REFUNDED if it is PAID by `customerId` on or after `paidSince`, locking it;
 * undefined otherwise (the caller reads why).
 */
export async function markRefunded(
  tx: Tx,
  merchantId: number,
  requestId: string,
  customerId: number,
  paidSince: Date,
  now: Date,
): Promise<RequestRow | undefined> {
  const [updated] = await tx
    .update(paymentRequests)
    .set({ status: 'REFUNDED', closedAt: now })
    .where(
      and(
        ofMerchant(merchantId, requestId),
        eq(paymentRequests.status, 'PAID'),
        eq(paymentRequests.reservedBy, customerId),
        gte(paymentRequests.paidAt, paidSince),
      ),
    )
    .returning();
  return updated;
}
