import { eq } from 'drizzle-orm';
import { customers } from '../db/schema';
import type { Harness } from './harness';
import { insertPurchase } from './purchase-fixture';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A customer of standing (docs/rules/shorts.md#S11): an account 30 days old on the controlled clock with one
 * completed payment, whose reports may hide content made after the account.
 */
export async function trustedReporter(h: Harness): Promise<Awaited<ReturnType<Harness['signUp']>>> {
  const customer = await h.signUp();
  const joined = new Date(h.clock.now().getTime() - 30 * DAY_MS);
  await h.database.db.update(customers).set({ createdAt: joined }).where(eq(customers.id, customer.customerId));
  await insertPurchase(h.database.db, { customerId: customer.customerId, totalPrice: 5_000, at: h.clock.now() });
  return customer;
}
