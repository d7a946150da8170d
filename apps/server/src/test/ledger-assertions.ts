import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customers, pointLedger } from '../db/schema';

/** Σ of a customer's point ledger: must always equal the stored balance (docs/rules/points.md#R1). */
export async function ledgerSum(db: Db, customerId: number): Promise<number> {
  const [row] = await db
    .select({ sum: sql<string>`coalesce(sum(${pointLedger.amount}), 0)` })
    .from(pointLedger)
    .where(eq(pointLedger.customerId, customerId));
  return Number(row?.sum ?? 0);
}

export async function pointBalance(db: Db, customerId: number): Promise<number> {
  const [row] = await db
    .select({ balance: customers.pointBalance })
    .from(customers)
    .where(eq(customers.id, customerId));
  if (!row) throw new Error(`customer ${customerId} not found`);
  return row.balance;
}
