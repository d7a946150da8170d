import { kstDate } from '@ohgood/contract/kst';
import { and, eq, inArray } from 'drizzle-orm';
import { openCliDatabase, runCli } from '../db/cli-database';
import { autopayAttempts, customers, purchases, statements } from '../db/schema';
import { withTx } from '../db/tx';

/*
 * e2e setup only (`e2e/autopay-verification.spec.ts`): puts the customer's unpaid lines in an autopay attempt
 * whose bank call is still open — what the autopay claim writes before it asks the bank (B18) — so the screen
 * can be seen refusing an early payment of them. Run against the e2e server's data directory:
 * `DATA_DIR=… tsx src/test/e2e-hold-autopay.ts <email>`.
 */
runCli(async () => {
  const [email] = process.argv.slice(2);
  if (!email) throw new Error('usage: tsx src/test/e2e-hold-autopay.ts <customer email>');
  const database = await openCliDatabase();
  try {
    await withTx(database.db, async (tx) => {
      const [customer] = await tx.select({ id: customers.id }).from(customers).where(eq(customers.email, email));
      if (!customer) throw new Error(`no customer ${email}`);
      const lines = await tx
        .select({ id: purchases.id, price: purchases.price, month: purchases.statementMonth })
        .from(purchases)
        .where(and(eq(purchases.customerId, customer.id), eq(purchases.status, 'UNPAID')));
      const month = lines[0]?.month;
      if (!month) throw new Error('no unpaid line to hold');
      await tx.insert(statements).values({ customerId: customer.id, month }).onConflictDoNothing();
      const [statement] = await tx
        .select({ id: statements.id })
        .from(statements)
        .where(and(eq(statements.customerId, customer.id), eq(statements.month, month)));
      if (!statement) throw new Error('no statement');
      const inFlight = new Date(Date.now() + 3_600_000);
      const [attempt] = await tx
        .insert(autopayAttempts)
        .values({
          statementId: statement.id,
          customerId: customer.id,
          kstDate: kstDate(new Date()),
          nextTryAt: inFlight,
          leaseUntil: inFlight,
          tries: 1,
          amount: lines.reduce((sum, line) => sum + line.price, 0),
          purchaseIds: lines.map((line) => line.id),
        })
        .returning({ id: autopayAttempts.id });
      if (!attempt) throw new Error('no attempt');
      await tx
        .update(purchases)
        .set({ collectingAttemptId: attempt.id })
        .where(
          inArray(
            purchases.id,
            lines.map((line) => line.id),
          ),
        );
    });
    console.log(`held ${email}'s unpaid lines in an autopay attempt`);
  } finally {
    await database.close();
  }
});
