import { AUTOPAY_RULES, type DebitResult } from '@ohgood/contract/autopay';
import { kstDate } from '@ohgood/contract/kst';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { lockCustomer, lockCustomerIfAny } from '../../db/locks';
import { autopayAttempts, customers, purchases, statements } from '../../db/schema';
import { isLockTimeout, rowsOf, type Tx, withTx } from '../../db/tx';
import { recordEvent } from '../../events/record-event';
import type { Clock } from '../../lib/clock';
import { type BankGateway, withinDeadline } from '../bank/gateway';
import { repayLines } from '../bills/bills-actions';
import { dueDate } from '../bills/statements';
import { autopayActiveSql } from './standing';

type Attempt = typeof autopayAttempts.$inferSelect;

const minutes = (n: number) => n * 60_000;

/**
 * The daily plan (docs/rules/bills-and-grades.md#B16), run once per KST date by the job runner: one PENDING
 * attempt for every statement that autopay should debit today — its customer has autopay on (switched on,
 * consent in force and the account verified by 1원 인증, #B21–#B23; a pending customer is never debited), it still has
 * unpaid lines, it is not overdue and today is on or after its due date (the 15th; for a statement the
 * customer extended, the extended date). An automatically extended statement keeps its 15th, so a failed
 * debit is tried again every day until the statement becomes overdue. The (statement, day) key makes the
 * plan idempotent; a statement whose earlier attempt is still open (its bank answer may be lost) gets none,
 * so its next debit reuses that attempt's idempotency key and can never take the money twice, and neither does
 * one whose debit failed within `AUTOPAY_RULES.failedRestHours` (a catch-up's missed day and today's run).
 */
export async function planAutopay(tx: Tx, today: string, at: Date): Promise<{ planned: number }> {
  const candidates = await rowsOf<{ id: number; customer_id: number; month: string; extension: string | null }>(
    tx,
    sql`select s.id, s.customer_id, s.month, s.extension from ${statements} s
      join ${customers} c on c.id = s.customer_id
      where ${autopayActiveSql(sql`c`)} and s.overdue_at is null and s.month < ${today.slice(0, 7)}
        and exists (select 1 from ${purchases} p where p.customer_id = s.customer_id
          and p.statement_month = s.month and p.status = 'UNPAID')
        and not exists (select 1 from ${autopayAttempts} a where a.statement_id = s.id and a.status = 'PENDING')
        and not exists (select 1 from ${autopayAttempts} a where a.statement_id = s.id and a.status = 'FAILED'
          and a.finished_at > ${new Date(at.getTime() - AUTOPAY_RULES.failedRestHours * 3_600_000)})
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

/** The bank's answer, or `unknown` when it did not answer in time (the bank may have acted). */
type BankAnswer = DebitResult | 'unknown';

export interface AutopayOptions {
  /** A bank call past this is `unknown` (AUTOPAY_RULES.bankTimeoutSeconds by default). */
  bankTimeoutMs?: number;
  /** How long a claim waits for a customer's row held by another transaction (AUTOPAY_RULES). */
  customerLockWaitMs?: number;
}

/**
 * Debits every attempt that is due (`next_try_at` passed) and not held by another instance, one at a time:
 * claim (a lease, `FOR UPDATE SKIP LOCKED`, under the customer's lock, marking the lines as collected by it)
 * → ask the bank with the attempt's idempotency key, within a deadline → settle in one transaction (the
 * repayment, exactly as an early payment records it, and the attempt's outcome and event) → give back what
 * the bank took for lines paid meanwhile. The bank call sits between two transactions, as with any external
 * bank: if this process dies after the bank answered, the attempt stays PENDING, its lines stay collected by
 * it, and once its lease ends it is asked again with the same key; the bank answers what it did the first
 * time, so the repayment is recorded once and the money moved once (docs/rules/bills-and-grades.md#B17–#B18).
 */
export async function runAutopay(
  db: Db,
  bank: BankGateway,
  clock: Clock,
  options: AutopayOptions = {},
): Promise<AutopayRunResult> {
  const timeoutMs = options.bankTimeoutMs ?? AUTOPAY_RULES.bankTimeoutSeconds * 1000;
  const lockWaitMs = options.customerLockWaitMs ?? AUTOPAY_RULES.customerLockWaitMs;
  const result: AutopayRunResult = { paid: 0, failed: 0, retrying: 0, skipped: 0 };
  await refundOwedSurpluses(db, bank, clock, timeoutMs);
  for (;;) {
    const claimed = await claimNext(db, clock.now(), lockWaitMs);
    if (!claimed) break;
    result[await debitClaimed(db, bank, clock, claimed, timeoutMs)] += 1;
  }
  return result;
}

/** What became of one claimed attempt. */
type ClaimOutcome = keyof AutopayRunResult;

/** Asks the bank for a claimed attempt's debit with its key, settles the answer and gives back any surplus. */
async function debitClaimed(
  db: Db,
  bank: BankGateway,
  clock: Clock,
  claimed: Claim,
  timeoutMs: number,
): Promise<ClaimOutcome> {
  if ('skipped' in claimed) return 'skipped';
  if ('busy' in claimed) return 'retrying';
  const { attempt, bankCode, account } = claimed;
  const answer = await withinDeadline(
    bank.debit({
      customerId: attempt.customerId,
      bank: bankCode,
      account,
      amount: attempt.amount ?? 0,
      idempotencyKey: idempotencyKeyOf(attempt),
    }),
    timeoutMs,
  );
  const outcome = await withTx(db, (tx) => settle(tx, attempt, answer, clock.now()));
  if (outcome.surplus > 0) await refundSurplus(db, bank, clock, attempt.id, timeoutMs);
  return outcome.outcome;
}

/**
 * Debits one attempt now, exactly as the run would (a staff retry): the same claim, key, settlement and
 * surplus refund. `undefined` when it is not claimable now: another instance holds it (its lease or its
 * row), or it is no longer PENDING; whoever holds it finishes it.
 */
export async function debitAttemptNow(
  db: Db,
  bank: BankGateway,
  clock: Clock,
  attemptId: number,
  options: AutopayOptions = {},
): Promise<ClaimOutcome | undefined> {
  const timeoutMs = options.bankTimeoutMs ?? AUTOPAY_RULES.bankTimeoutSeconds * 1000;
  const lockWaitMs = options.customerLockWaitMs ?? AUTOPAY_RULES.customerLockWaitMs;
  const claimed = await claimNext(db, clock.now(), lockWaitMs, attemptId);
  return claimed ? debitClaimed(db, bank, clock, claimed, timeoutMs) : undefined;
}

/**
 * The bank key of an attempt: one per (statement, KST day, round). The plan's round 0 keeps the key it always
 * had; a staff retry on the same day (round 1, 2, …) is a new debit request, so it needs a key of its own.
 */
export const idempotencyKeyOf = (attempt: Pick<Attempt, 'statementId' | 'kstDate' | 'round'>) =>
  `autopay:${attempt.statementId}:${attempt.kstDate}${attempt.round > 0 ? `:${attempt.round}` : ''}`;

/** The bank key of an attempt's surplus refund: one per attempt, whoever asks and however often. */
export const surplusKeyOf = (attempt: Pick<Attempt, 'id'>) => `autopay-surplus:${attempt.id}`;

type Claim = { attempt: Attempt; bankCode: string; account: string } | { skipped: true } | { busy: true };

/**
 * Takes the oldest due attempt under a lease and the customer's lock. Its amount and lines are fixed at its
 * first claim (the statement's unpaid lines and every older unpaid line, since repayment goes oldest first)
 * and marked as collected by it, in the same transaction: from then until its answer is recorded an early
 * payment of them is refused, so a line has one owner. They are reused when the last answer was unknown, so a
 * repeated bank call carries the same amount under the same key; after `unavailable` (the bank did not act)
 * they were released and are fixed again. A customer whose row another transaction holds is passed over for
 * a minute instead of holding up everyone's debits.
 */
async function claimNext(db: Db, now: Date, lockWaitMs: number, onlyId?: number): Promise<Claim | undefined> {
  let picked: number | undefined;
  const only = onlyId === undefined ? sql`` : sql`and id = ${onlyId}`;
  try {
    return await withTx(db, async (tx) => {
      const [row] = await rowsOf<{ id: number; customer_id: number }>(
        tx,
        sql`select id, customer_id from ${autopayAttempts}
          where status = 'PENDING' and next_try_at <= ${now} and (lease_until is null or lease_until <= ${now})
          ${only} order by id limit 1 for update skip locked`,
      );
      if (!row) return undefined;
      picked = row.id;
      await tx.execute(sql.raw(`set local lock_timeout = ${Math.max(1, Math.round(lockWaitMs))}`));
      const customer = await lockCustomerIfAny(tx, row.customer_id);
      await tx.execute(sql`set local lock_timeout = 0`);
      const [attempt] = await tx
        .update(autopayAttempts)
        .set({ leaseUntil: new Date(now.getTime() + minutes(AUTOPAY_RULES.leaseMinutes)), tries: sql`tries + 1` })
        .where(eq(autopayAttempts.id, row.id))
        .returning();
      if (!attempt || !customer) return undefined;
      const bankOf = { bankCode: customer.accountName, account: customer.account };
      if (attempt.amount !== null && attempt.purchaseIds) return { attempt, ...bankOf };
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
      await tx
        .update(purchases)
        .set({ collectingAttemptId: attempt.id })
        .where(inArray(purchases.id, fixed.purchaseIds));
      return { attempt: { ...attempt, ...fixed }, ...bankOf };
    });
  } catch (error) {
    if (!isLockTimeout(error) || picked === undefined) throw error;
    await db
      .update(autopayAttempts)
      .set({ nextTryAt: new Date(now.getTime() + minutes(AUTOPAY_RULES.busyRetryMinutes)) })
      .where(and(eq(autopayAttempts.id, picked), eq(autopayAttempts.status, 'PENDING')));
    return { busy: true };
  }
}

/**
 * Records the bank's answer: the repayment and success, a failure, a retry later the same day, or, when the
 * bank did not answer in time, nothing but that: the lines stay collected by the attempt and it is asked again.
 */
async function settle(
  tx: Tx,
  attempt: Attempt,
  answer: BankAnswer,
  now: Date,
): Promise<{ outcome: 'paid' | 'failed' | 'retrying'; surplus: number }> {
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
  const release = () =>
    tx.update(purchases).set({ collectingAttemptId: null }).where(eq(purchases.collectingAttemptId, attempt.id));

  if (answer === 'unknown') {
    await finish({ nextTryAt: new Date(now.getTime() + minutes(AUTOPAY_RULES.unknownRetryMinutes)) });
    return { outcome: 'retrying', surplus: 0 };
  }
  await release();
  if (answer === 'paid') {
    const ids = attempt.purchaseIds ?? [];
    // Lines paid or refunded since the claim (a manual fix, a shop's refund) stay as they are; the rest are
    // repaid here, and what the bank took for the others is owed back.
    const open = await tx
      .select({ id: purchases.id, price: purchases.price })
      .from(purchases)
      .where(and(inArray(purchases.id, ids), eq(purchases.status, 'UNPAID')));
    const repayment =
      open.length > 0
        ? await repayLines(
            tx,
            attempt.customerId,
            open.map((row) => row.id),
            now,
            'AUTOMATIC',
          )
        : undefined;
    const surplus = amount - open.reduce((sum, row) => sum + row.price, 0);
    const done = await finish({
      status: 'PAID',
      finishedAt: now,
      repaymentId: repayment?.repaymentId ?? null,
      surplus,
    });
    if (done.length > 0) {
      await recordEvent(
        tx,
        { type: 'autopay.succeeded', customerId: attempt.customerId, month, amount, date: attempt.kstDate, surplus },
        now,
      );
    }
    return { outcome: 'paid', surplus: done.length > 0 ? surplus : 0 };
  }
  const retryAt = new Date(now.getTime() + minutes(AUTOPAY_RULES.unavailableRetryMinutes));
  if (answer === 'unavailable' && kstDate(retryAt) === attempt.kstDate) {
    // The bank did not act: the lines are free again, and fixed anew at the next try.
    await finish({ nextTryAt: retryAt, amount: null, purchaseIds: null });
    return { outcome: 'retrying', surplus: 0 };
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
  return { outcome: 'failed', surplus: 0 };
}

/**
 * Gives an attempt's surplus back to the linked account through the bank's credit, under the attempt's own
 * key, and records it with its notice. A credit that fails or does not answer in time stays owed and is asked
 * again, with the same key, at the start of the next run.
 */
async function refundSurplus(db: Db, bank: BankGateway, clock: Clock, attemptId: number, timeoutMs: number) {
  const [owed] = await db
    .select({
      attempt: autopayAttempts,
      account: customers.account,
      bankCode: customers.accountName,
      month: statements.month,
    })
    .from(autopayAttempts)
    .innerJoin(customers, eq(customers.id, autopayAttempts.customerId))
    .innerJoin(statements, eq(statements.id, autopayAttempts.statementId))
    .where(
      and(
        eq(autopayAttempts.id, attemptId),
        sql`${autopayAttempts.surplus} > 0`,
        isNull(autopayAttempts.surplusRefundedAt),
      ),
    );
  if (!owed) return;
  const { attempt } = owed;
  const answer = await withinDeadline(
    bank.credit({
      customerId: attempt.customerId,
      bank: owed.bankCode,
      account: owed.account,
      amount: attempt.surplus,
      idempotencyKey: surplusKeyOf(attempt),
    }),
    timeoutMs,
  );
  if (answer !== 'credited') return;
  await withTx(db, async (tx) => {
    const now = clock.now();
    const [marked] = await tx
      .update(autopayAttempts)
      .set({ surplusRefundedAt: now })
      .where(and(eq(autopayAttempts.id, attempt.id), isNull(autopayAttempts.surplusRefundedAt)))
      .returning({ id: autopayAttempts.id });
    if (!marked) return;
    await recordEvent(
      tx,
      {
        type: 'autopay.surplus_refunded',
        customerId: attempt.customerId,
        month: owed.month,
        amount: attempt.surplus,
        date: attempt.kstDate,
      },
      now,
    );
  });
}

/** Surpluses still owed from earlier runs (a credit that failed, or a process that died before it). */
async function refundOwedSurpluses(db: Db, bank: BankGateway, clock: Clock, timeoutMs: number) {
  const owed = await db
    .select({ id: autopayAttempts.id })
    .from(autopayAttempts)
    .where(and(sql`${autopayAttempts.surplus} > 0`, isNull(autopayAttempts.surplusRefundedAt)))
    .orderBy(asc(autopayAttempts.id));
  for (const { id } of owed) await refundSurplus(db, bank, clock, id, timeoutMs);
}
