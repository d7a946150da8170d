import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { autopayAttempts, customers, statements } from '../db/schema';
import { insertPurchase } from './purchase-fixture';

let sequence = 0;

/**
 * A customer row written straight to the real database (no password hashing, no sign-up limits): the console's
 * lists need many customers, and read nothing a sign-up adds beyond this row.
 */
export async function insertCustomer(db: Db, fields: Partial<typeof customers.$inferInsert> = {}): Promise<number> {
  sequence += 1;
  const tag = `${sequence}-${Date.now()}`;
  const [row] = await db
    .insert(customers)
    .values({
      email: `desk${tag}@example.com`,
      passwordHash: 'x',
      name: '홍길동',
      birth: '1990-01-01',
      account: `9${String(sequence).padStart(10, '0')}`,
      accountName: '국민',
      nickname: `desk${tag}`,
      ...fields,
    })
    .returning({ id: customers.id });
  if (!row) throw new Error('customer insert failed');
  return row.id;
}

/** An unpaid purchase of `amount` in `month`'s statement, and that statement overdue since `overdueAt`. */
export async function makeOverdue(db: Db, customerId: number, amount: number, month: string, overdueAt: Date) {
  await insertPurchase(db, { customerId, totalPrice: amount, at: new Date(`${month}-15T03:00:00Z`) });
  await db
    .update(statements)
    .set({ overdueAt })
    .where(and(eq(statements.customerId, customerId), eq(statements.month, month)));
}

/** A FAILED autopay attempt on `month`'s statement (made if missing; `day`'s month by default), on the KST day `day`. */
export async function failedAttempt(
  db: Db,
  customerId: number,
  day: string,
  amount: number,
  result: string,
  month = day.slice(0, 7),
) {
  const [statement] = await db
    .insert(statements)
    .values({ customerId, month })
    .onConflictDoUpdate({ target: [statements.customerId, statements.month], set: { month } })
    .returning({ id: statements.id });
  const [attempt] = await db
    .insert(autopayAttempts)
    .values({
      statementId: statement?.id as number,
      customerId,
      kstDate: day,
      status: 'FAILED',
      amount,
      result,
      tries: 1,
      nextTryAt: new Date(`${day}T00:00:00Z`),
    })
    .returning({ id: autopayAttempts.id });
  return attempt?.id as number;
}
