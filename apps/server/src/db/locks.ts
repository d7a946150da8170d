import { asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { notFound } from '../lib/errors';
import type { CtePart } from './cte';
import { customers } from './schema';
import type { Tx } from './tx';

/**
 * Step 1 of the lock order (see `withTx`): the customer row. Every money path of one customer takes it
 * first, so that customer's payments, refunds, repayments, extensions and rewards run one at a time.
 *
 * The lock is FOR NO KEY UPDATE, which conflicts with itself (money paths still take turns) but not with the
 * FOR KEY SHARE that PostgreSQL's foreign-key check takes on the customer row for every insert that refers to
 * it: a notice, a reserved request, a rate-limit row. A customer's key never changes and the row is never
 * deleted, so FOR UPDATE guarded nothing more, and under it the relay's batch of notices (the customers of
 * up to a hundred events) and the next payment of each of those customers waited on one another.
 */
export const CUSTOMER_LOCK = 'no key update';
export async function lockCustomer(tx: Tx, customerId: number) {
  const row = await lockCustomerIfAny(tx, customerId);
  if (!row) throw customerNotFound();
  return row;
}

/** The answer when a money path's customer does not exist. */
export const customerNotFound = () => notFound('CUSTOMER_NOT_FOUND', '고객 정보를 찾을 수 없습니다.');

/**
 * Step 1 as the first part of a statement (`WITH customer_locked AS (…)`), for a write that takes the lock in
 * its own round trip: the rest of the statement reads `customer_locked` (the row's id and point balance, none for
 * an unknown customer), so the lock is held before anything else of it runs.
 */
export const customerLockedPart = (customerId: SQL): CtePart => ({
  name: 'customer_locked',
  query: sql`select ${customers.id}, ${customers.pointBalance} from ${customers} where ${customers.id} = ${customerId} for no key update`,
});

/** `lockCustomer` for a caller that answers a missing customer itself: undefined instead of a 404. */
export async function lockCustomerIfAny(tx: Tx, customerId: number) {
  const [row] = await tx.select().from(customers).where(eq(customers.id, customerId)).for(CUSTOMER_LOCK);
  return row;
}

/** Step 1 for work on many customers (the bill jobs): their rows in ascending id order. */
export async function lockCustomers(tx: Tx, customerIds: number[]): Promise<void> {
  const ids = [...new Set(customerIds)];
  if (ids.length === 0) return;
  await tx
    .select({ id: customers.id })
    .from(customers)
    .where(inArray(customers.id, ids))
    .orderBy(asc(customers.id))
    .for(CUSTOMER_LOCK);
}
