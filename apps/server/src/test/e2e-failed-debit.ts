import { addMonths, dateInMonth, kstDate, kstStartOfDay } from '@ohgood/contract/kst';
import { eq } from 'drizzle-orm';
import { openCliDatabase, runCli } from '../db/cli-database';
import { autopayAttempts, customers, statements } from '../db/schema';
import { withTx } from '../db/tx';
import { JOBS, scheduledAt } from '../jobs/runner';
import { writeDirectPurchases } from '../modules/payments/direct-purchases';
import { ensureDemoMerchants } from '../seed/demo-merchants';

/*
 * e2e setup only (`e2e/ops-collections.spec.ts`): gives the customer last month's bill of 23,000원 and a debit
 * of it the bank refused today — what autopay leaves after a debit that found the account short — so the
 * console's failed-debit list has a row to retry. Every row is dated on the e2e server's clock (`<now>`, the
 * instant its API answered; it runs shifted by CLOCK_START), never on this machine's: the statement at its
 * issue run, the refusal at the autopay run (or now, if that is still ahead). Run against the e2e server's
 * data directory: `DATA_DIR=… tsx src/test/e2e-failed-debit.ts <email> <now ISO>`.
 */
runCli(async () => {
  const [email, nowIso] = process.argv.slice(2);
  const now = new Date(nowIso ?? '');
  if (!email || Number.isNaN(now.getTime()))
    throw new Error('usage: tsx src/test/e2e-failed-debit.ts <customer email> <the server clock ISO instant>');
  const today = kstDate(now);
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
      const issuedAt = scheduledAt('statement-issue', dateInMonth(today.slice(0, 7), JOBS['statement-issue'].day));
      const [statement] = await tx
        .insert(statements)
        .values({ customerId: customer.id, month, createdAt: issuedAt })
        // The purchase may have opened it already (on this machine's time): it is dated at its issue run.
        .onConflictDoUpdate({ target: [statements.customerId, statements.month], set: { createdAt: issuedAt } })
        .returning({ id: statements.id });
      if (!statement) throw new Error(`no ${month} statement`);
      const at = new Date(Math.min(scheduledAt('autopay', today).getTime(), now.getTime()));
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
        createdAt: at,
      });
    });
    console.log(`${email}: a refused debit on ${today}`);
  } finally {
    await database.close();
  }
});
