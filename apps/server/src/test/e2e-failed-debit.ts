import { addMonths, dateInMonth, kstStartOfDay } from '@ohgood/contract/kst';
import { and, eq } from 'drizzle-orm';
import { openCliDatabase, runCli } from '../db/cli-database';
import { autopayAttempts, customers, statements } from '../db/schema';
import { withTx } from '../db/tx';
import { ensureStatement } from '../modules/bills/statements';
import { writeDirectPurchases } from '../modules/payments/direct-purchases';
import { ensureDemoMerchants } from '../seed/demo-merchants';

/*
 * e2e setup only (`e2e/ops-collections.spec.ts`): gives the customer last month's bill of 23,000원 and a debit
 * of it the bank refused on `<today>` (the e2e server's KST date) — what autopay leaves after a debit that
 * found the account short — so the console's failed-debit list has a row to retry. Run against the e2e
 * server's data directory: `DATA_DIR=… tsx src/test/e2e-failed-debit.ts <email> <today>`.
 */
runCli(async () => {
  const [email, today] = process.argv.slice(2);
  if (!email || !today) throw new Error('usage: tsx src/test/e2e-failed-debit.ts <customer email> <YYYY-MM-DD>');
  const database = await openCliDatabase();
  try {
    const merchantIds = await ensureDemoMerchants(database.db);
    await withTx(database.db, async (tx) => {
      const [customer] = await tx.select({ id: customers.id }).from(customers).where(eq(customers.email, email));
      if (!customer) throw new Error(`no customer ${email}`);
      const month = addMonths(today.slice(0, 7), -1);
      await writeDirectPurchases(tx, customer.id, [
        {
          merchantId: merchantIds.get('GS25') ?? 0,
          requestName: '지난달 장보기',
          totalPrice: 23_000,
          pointUsed: 0,
          pointEarned: 0,
          at: new Date(kstStartOfDay(dateInMonth(month, 20)).getTime() + 12 * 3_600_000),
        },
      ]);
      await ensureStatement(tx, customer.id, month);
      const [statement] = await tx
        .select({ id: statements.id })
        .from(statements)
        .where(and(eq(statements.customerId, customer.id), eq(statements.month, month)));
      if (!statement) throw new Error(`no ${month} statement`);
      const at = new Date(kstStartOfDay(today).getTime() + 10 * 3_600_000);
      await tx.insert(autopayAttempts).values({
        statementId: statement.id,
        customerId: customer.id,
        kstDate: today,
        status: 'FAILED',
        result: 'insufficient_funds',
        amount: 23_000,
        tries: 1,
        nextTryAt: at,
        finishedAt: at,
      });
    });
    console.log(`${email}: a refused debit on ${today}`);
  } finally {
    await database.close();
  }
});
