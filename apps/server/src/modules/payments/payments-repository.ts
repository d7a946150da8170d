import { monthDates } from '@ohgood/contract/kst';
import { and, desc, eq, gte, inArray, isNull, lt, type SQL, sql } from 'drizzle-orm';
import { customers, merchants, paymentRequests, pointLedger, purchases } from '../../db/schema';
import type { Executor, Tx } from '../../db/tx';
import type { HeldRequest } from './validate-read';

/**
 * The SQL of a customer's payments besides the final's and validate's one reads (`final-read.ts`,
 * `validate-read.ts`) and the payment's write (`payment-write.ts`): the code's reservation and the histories.
 */

/** What validate answers about the request it reserved, read or written. */
const heldColumns = {
  id: paymentRequests.id,
  requestName: paymentRequests.requestName,
  totalPrice: paymentRequests.totalPrice,
  expiresAt: paymentRequests.expiresAt,
};

/** Reserves the `usable` request for the customer if it is free, in one conditional update (free → mine). */
export async function reserveFreeRequest(tx: Tx, usable: SQL, customerId: number): Promise<HeldRequest | undefined> {
  const [reserved] = await tx
    .update(paymentRequests)
    .set({ reservedBy: customerId })
    .where(and(usable, isNull(paymentRequests.reservedBy)))
    .returning(heldColumns);
  return reserved;
}

/** The `usable` request when the customer holds it already. */
export async function requestHeldBy(tx: Tx, usable: SQL, customerId: number): Promise<HeldRequest | undefined> {
  const [held] = await tx
    .select(heldColumns)
    .from(paymentRequests)
    .where(and(usable, eq(paymentRequests.reservedBy, customerId)));
  return held;
}

/** Whether a request `match` points at (usable or not) is or was the customer's. */
export async function everHeldBy(tx: Tx, match: SQL, customerId: number): Promise<boolean> {
  const [mine] = await tx
    .select({ id: paymentRequests.id })
    .from(paymentRequests)
    .where(and(match, eq(paymentRequests.reservedBy, customerId)))
    .limit(1);
  return Boolean(mine);
}

export async function anyRequest(tx: Tx, where: SQL): Promise<boolean> {
  const [found] = await tx.select({ id: paymentRequests.id }).from(paymentRequests).where(where);
  return Boolean(found);
}

/** The customer's payments, of one statement month when given, newest first, with their merchant's name. */
export function paymentRows(db: Executor, customerId: number, month?: string) {
  const conditions: SQL[] = [eq(purchases.customerId, customerId)];
  if (month) conditions.push(eq(purchases.statementMonth, month));
  return db
    .select({
      paymentId: purchases.id,
      createdAt: purchases.createdAt,
      requestName: purchases.requestName,
      merchant: merchants.name,
      totalPrice: purchases.totalPrice,
      point: purchases.pointUsed,
      price: purchases.price,
      pointEarned: purchases.pointEarned,
      status: purchases.status,
    })
    .from(purchases)
    .innerJoin(merchants, eq(merchants.id, purchases.merchantId))
    .where(and(...conditions))
    .orderBy(desc(purchases.createdAt), desc(purchases.id));
}

/** The customer's point ledger, of one KST month when given, newest first, with the merchant of its line. */
export function pointRows(db: Executor, customerId: number, month?: string) {
  const conditions: SQL[] = [eq(pointLedger.customerId, customerId)];
  if (month) {
    const { first, nextFirst } = monthDates(month);
    conditions.push(gte(pointLedger.kstDate, first), lt(pointLedger.kstDate, nextFirst));
  }
  // A payment's and a refund's rows point at the purchase (its id as text): its merchant names the line.
  return db
    .select({
      createdAt: pointLedger.createdAt,
      reason: pointLedger.reason,
      amount: pointLedger.amount,
      merchant: merchants.name,
    })
    .from(pointLedger)
    .leftJoin(
      purchases,
      and(inArray(pointLedger.refType, ['purchase', 'refund']), sql`${purchases.id}::text = ${pointLedger.refId}`),
    )
    .leftJoin(merchants, eq(merchants.id, purchases.merchantId))
    .where(and(...conditions))
    .orderBy(desc(pointLedger.createdAt), desc(pointLedger.id));
}

export async function findCustomer(db: Executor, customerId: number) {
  const [customer] = await db.select().from(customers).where(eq(customers.id, customerId));
  return customer;
}
