import { AUTOPAY_RULES, type DebitResult } from '@ohgood/contract/autopay';
import { kstDate } from '@ohgood/contract/kst';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { lockCustomer } from '../../db/locks';
import { autopayAttempts, customers, purchases, statements } from '../../db/schema';
import { rowsOf, type Tx, withTx } from '../../db/tx';
import { recordEvent } from '../../events/record-event';
import type { Clock } from '../../lib/clock';
import type { BankGateway } from '../bank/gateway';
import { repayLines } from '../bills/service';
import { dueDate } from '../bills/statements';

type Attempt = typeof autopayAttempts.$inferSelect;

const minutes = (n: number) => n * 60_000;

/**
 * The daily plan (docs/rules/bills-and-grades.md#B16), run once per KST date by the job runner: one PENDING
 * attempt for every statement that autopay should debit today — its customer has autopay on, it still has
 * unpaid lines, it is not overdue and today is on or after its due date (the 15th; for a statement the
 * customer extended, the extended date). An automatically extended statement keeps its 15th, so a failed
 * debit is tried again every day until the statement becomes overdue. The (statement, day) key makes the
 * plan idempotent; a statement whose earlier attempt is still open (its bank answer may be lost) gets none,
 * so its next debit reuses that attempt's idempotency key and can never take the money twice.
 */
export async function planAutopay(tx: Tx, today: string, at: Date): Promise<{ planned: number }> {
  const candidates = await rowsOf<{ id: number; customer_id: number; month: string; extension: string | null }>(
    tx,
    sql`select s.id, s.customer_id, s.month, s.extension from ${statements} s
      join ${customers} c on c.id = s.customer_id
      where c.autopay and s.overdue_at is null and s.month < ${today.slice(0, 7)}
        and exists (select 1 from ${purchases} p where p.customer_id = s.customer_id
          and p.statement_month = s.month and p.status = 'UNPAID')
        and not exists (select 1 from ${autopayAttempts} a where a.statement_id = s.id and a.status = 'PENDING')
      order by s.id`,
  );
  const due = candidates.filter((row) => dueDate(row.month, row.extension === 'MANUAL') <= today);
  if (due.length === 0) return { planned: 0 };
  const inserted = await tx
    .insert(autopayAttempts)
    .values(due.map((row) => ({ statementId: row.id, customerId: row.customer_id, kstDate: today, nextTryAt: at })))
    .onConflictDoNothing()
    .returning({ id: autopayAttempts.id });
  return { planned: inserted.length };
}

export interface AutopayRunResult {
  paid: number;
  failed: number;
  retrying: number;
  skipped: number;
}

/**
 * Debits every attempt that is due (`next_try_at` passed) and not held by another instance, one at a time:
 * claim (a lease, `FOR UPDATE SKIP LOCKED`) → ask the bank with the attempt's idempotency key → settle in one
 * transaction (the repayment, exactly as an early payment records it, and the attempt's outcome and event).
 * The bank call sits between two transactions, as with any external bank: if this process dies after the
 * bank answered, the attempt stays PENDING and, once its lease ends, is asked again with the same key; the bank
 * answers what it did the first time, so the repayment is recorded once and the money moved once.
 */
export async function runAutopay(db: Db, bank: BankGateway, clock: Clock): Promise<AutopayRunResult> {
  const result: AutopayRunResult = { paid: 0, failed: 0, retrying: 0, skipped: 0 };
  for (;;) {
    const claimed = await claimNext(db, clock.now());
    if (!claimed) return result;
    if ('skipped' in claimed) {
      result.skipped += 1;
      continue;
    }
    const { attempt, bankCode, account } = claimed;
    const answer = await bank.debit({
      customerId: attempt.customerId,
      bank: bankCode,
      account,
      amount: attempt.amount ?? 0,
      idempotencyKey: idempotencyKeyOf(attempt),
    });
    const outcome = await withTx(db, (tx) => settle(tx, attempt, answer, clock.now()));
    result[outcome] += 1;
  }
}

/** The bank key of an attempt: one per (statement, KST day). */
export const idempotencyKeyOf = (attempt: Pick<Attempt, 'statementId' | 'kstDate'>) =>
  `autopay:${attempt.statementId}:${attempt.kstDate}`;

type Claim = { attempt: Attempt; bankCode: string; account: string } | { skipped: true };

/**
 * Takes the oldest due attempt under a lease. Its amount and lines are fixed at its first claim (the
 * statement's unpaid lines and every older unpaid line, since repayment goes oldest first) and reused on a
 * retry, so a repeated bank call carries the same amount under the same key.
 */
async function claimNext(db: Db, now: Date): Promise<Claim | undefined> {
  return withTx(db, async (tx) => {
    const [picked] = await rowsOf<{ id: number }>(
      tx,
      sql`select id from ${autopayAttempts}
        where status = 'PENDING' and next_try_at <= ${now} and (lease_until is null or lease_until <= ${now})
        order by id limit 1 for update skip locked`,
    );
    if (!picked) return undefined;
    const [attempt] = await tx
      .update(autopayAttempts)
      .set({ leaseUntil: new Date(now.getTime() + minutes(AUTOPAY_RULES.leaseMinutes)), tries: sql`tries + 1` })
      .where(eq(autopayAttempts.id, picked.id))
      .returning();
    if (!attempt) return undefined;
    const [customer] = await tx
      .select({ account: customers.account, bank: customers.accountName, autopay: customers.autopay })
      .from(customers)
      .where(eq(customers.id, attempt.customerId));
    if (!customer) return undefined;
    if (attempt.amount !== null && attempt.purchaseIds) {
      return { attempt, bankCode: customer.bank, account: customer.account };
    }
    const skip = async (reason: string): Promise<Claim> => {
      await tx
        .update(autopayAttempts)
        .set({ status: 'SKIPPED', result: reason, finishedAt: now, leaseUntil: null })
        .where(eq(autopayAttempts.id, attempt.id));
      return { skipped: true };
    };
    // Turned off or paid by hand since the plan: nothing to debit.
    if (!customer.autopay) return skip('autopay_off');
    const [statement] = await tx.select().from(statements).where(eq(statements.id, attempt.statementId));
    if (!statement || statement.overdueAt) return skip('overdue');
    const lines = await tx
      .select({ id: purchases.id, price: purchases.price })
      .from(purchases)
      .where(
        and(
          eq(purchases.customerId, attempt.customerId),
          eq(purchases.status, 'UNPAID'),
          sql`${purchases.statementMonth} <= ${statement.month}`,
        ),
      )
      .orderBy(asc(purchases.id));
    if (lines.length === 0) return skip('nothing_due');
    const fixed = { amount: lines.reduce((sum, line) => sum + line.price, 0), purchaseIds: lines.map((l) => l.id) };
    await tx.update(autopayAttempts).set(fixed).where(eq(autopayAttempts.id, attempt.id));
    return { attempt: { ...attempt, ...fixed }, bankCode: customer.bank, account: customer.account };
  });
}

/** Records the bank's answer: the repayment and success, a failure, or a retry later the same day. */
async function settle(
  tx: Tx,
  attempt: Attempt,
  answer: DebitResult,
  now: Date,
): Promise<'paid' | 'failed' | 'retrying'> {
  await lockCustomer(tx, attempt.customerId);
  const [statement] = await tx.select().from(statements).where(eq(statements.id, attempt.statementId));
  const month = statement?.month ?? '';
  const amount = attempt.amount ?? 0;
  const finish = (set: Partial<Attempt>) =>
    tx
      .update(autopayAttempts)
      .set({ leaseUntil: null, result: answer, ...set })
      .where(and(eq(autopayAttempts.id, attempt.id), eq(autopayAttempts.status, 'PENDING')))
      .returning({ id: autopayAttempts.id });

  if (answer === 'paid') {
    const ids = attempt.purchaseIds ?? [];
    // Lines the customer repaid by hand between the claim and now stay repaid; the rest are repaid here.
    const open = (
      await tx
        .select({ id: purchases.id })
        .from(purchases)
        .where(and(inArray(purchases.id, ids), eq(purchases.status, 'UNPAID')))
    ).map((row) => row.id);
    const repayment = open.length > 0 ? await repayLines(tx, attempt.customerId, open, now, 'AUTOMATIC') : undefined;
    const done = await finish({ status: 'PAID', finishedAt: now, repaymentId: repayment?.repaymentId ?? null });
    if (done.length > 0) {
      await recordEvent(
        tx,
        { type: 'autopay.succeeded', customerId: attempt.customerId, month, amount, date: attempt.kstDate },
        now,
      );
    }
    return 'paid';
  }
  const retryAt = new Date(now.getTime() + minutes(AUTOPAY_RULES.unavailableRetryMinutes));
  if (answer === 'unavailable' && kstDate(retryAt) === attempt.kstDate) {
    await finish({ nextTryAt: retryAt });
    return 'retrying';
  }
  const done = await finish({ status: 'FAILED', finishedAt: now });
  if (done.length > 0) {
    await recordEvent(
      tx,
      {
        type: 'autopay.failed',
        customerId: attempt.customerId,
        month,
        amount,
        date: attempt.kstDate,
        reason: answer,
      },
      now,
    );
  }
  return 'failed';
}
