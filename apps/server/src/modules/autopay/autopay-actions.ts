import { AUTOPAY_RULES, type DebitResult } from '@ohgood/contract/autopay';
import { kstDate } from '@ohgood/contract/kst';
import type { Db } from '../../db/client';
import { lockCustomer } from '../../db/locks';
import { isLockTimeout, type Tx, withTx } from '../../db/tx';
import { recordEvent } from '../../events/record-event';
import { repayLines } from '../bills/bills-actions';
import {
  type Attempt,
  findStatement,
  finishAttempt,
  fixAttemptLines,
  leaseAttempt,
  lockCustomerWaiting,
  markSurplusRefunded,
  type OwedSurplus,
  pickDueAttempt,
  postponeAttempt,
  releaseLines,
  skipAttempt,
  unpaidAmong,
  unpaidLinesThrough,
} from './autopay-repository';

/**
 * The transactions of an autopay debit, on either side of the bank call the job makes: the claim before it,
 * the settlement of the bank's answer after it, and the record of a surplus given back.
 */

const minutes = (n: number) => n * 60_000;

/** The bank's answer, or `unknown` when it did not answer in time (the bank may have acted). */
type BankAnswer = DebitResult | 'unknown';

/** A claimed attempt with the account to debit, or why there is nothing to ask the bank now. */
export type Claim = { attempt: Attempt; bankCode: string; account: string } | { skipped: true } | { busy: true };

/**
 * Takes the oldest due attempt under a lease and the customer's lock. Its amount and lines are fixed at its
 * first claim (the statement's unpaid lines and every older unpaid line, since repayment goes oldest first)
 * and marked as collected by it, in the same transaction: from then until its answer is recorded an early
 * payment of them is refused, so a line has one owner. They are reused when the last answer was unknown, so a
 * repeated bank call carries the same amount under the same key; after `unavailable` (the bank did not act)
 * they were released and are fixed again. A customer whose row another transaction holds is passed over for
 * a minute instead of holding up everyone's debits.
 */
export async function claimNext(db: Db, now: Date, lockWaitMs: number, onlyId?: number): Promise<Claim | undefined> {
  let picked: number | undefined;
  try {
    return await withTx(db, async (tx) => {
      const row = await pickDueAttempt(tx, now, onlyId);
      if (!row) return undefined;
      picked = row.id;
      const customer = await lockCustomerWaiting(tx, row.customer_id, lockWaitMs);
      const attempt = await leaseAttempt(tx, row.id, new Date(now.getTime() + minutes(AUTOPAY_RULES.leaseMinutes)));
      if (!attempt || !customer) return undefined;
      const bankOf = { bankCode: customer.accountName, account: customer.account };
      if (attempt.amount !== null && attempt.purchaseIds) return { attempt, ...bankOf };
      const skip = async (reason: string): Promise<Claim> => {
        await skipAttempt(tx, attempt.id, reason, now);
        return { skipped: true };
      };
      // Turned off or paid by hand since the plan: nothing to debit.
      if (!customer.autopay) return skip('autopay_off');
      const statement = await findStatement(tx, attempt.statementId);
      if (!statement || statement.overdueAt) return skip('overdue');
      const lines = await unpaidLinesThrough(tx, attempt.customerId, statement.month);
      if (lines.length === 0) return skip('nothing_due');
      const fixed = { amount: lines.reduce((sum, line) => sum + line.price, 0), purchaseIds: lines.map((l) => l.id) };
      await fixAttemptLines(tx, attempt.id, fixed);
      return { attempt: { ...attempt, ...fixed }, ...bankOf };
    });
  } catch (error) {
    if (!isLockTimeout(error) || picked === undefined) throw error;
    await postponeAttempt(db, picked, new Date(now.getTime() + minutes(AUTOPAY_RULES.busyRetryMinutes)));
    return { busy: true };
  }
}

/**
 * Records the bank's answer: the repayment and success, a failure, a retry later the same day, or, when the
 * bank did not answer in time, nothing but that: the lines stay collected by the attempt and it is asked again.
 */
export async function settleDebit(
  tx: Tx,
  attempt: Attempt,
  answer: BankAnswer,
  now: Date,
): Promise<{ outcome: 'paid' | 'failed' | 'retrying'; surplus: number }> {
  await lockCustomer(tx, attempt.customerId);
  const statement = await findStatement(tx, attempt.statementId);
  const month = statement?.month ?? '';
  const amount = attempt.amount ?? 0;
  const finish = (set: Partial<Attempt>) => finishAttempt(tx, attempt.id, { leaseUntil: null, result: answer, ...set });

  if (answer === 'unknown') {
    await finish({ nextTryAt: new Date(now.getTime() + minutes(AUTOPAY_RULES.unknownRetryMinutes)) });
    return { outcome: 'retrying', surplus: 0 };
  }
  await releaseLines(tx, attempt.id);
  if (answer === 'paid') {
    // Lines paid or refunded since the claim (a manual fix, a shop's refund) stay as they are; the rest are
    // repaid here, and what the bank took for the others is owed back.
    const open = await unpaidAmong(tx, attempt.purchaseIds ?? []);
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
    if (done) {
      await recordEvent(
        tx,
        { type: 'autopay.succeeded', customerId: attempt.customerId, month, amount, date: attempt.kstDate, surplus },
        now,
      );
    }
    return { outcome: 'paid', surplus: done ? surplus : 0 };
  }
  const retryAt = new Date(now.getTime() + minutes(AUTOPAY_RULES.unavailableRetryMinutes));
  if (answer === 'unavailable' && kstDate(retryAt) === attempt.kstDate) {
    // The bank did not act: the lines are free again, and fixed anew at the next try.
    await finish({ nextTryAt: retryAt, amount: null, purchaseIds: null });
    return { outcome: 'retrying', surplus: 0 };
  }
  const done = await finish({ status: 'FAILED', finishedAt: now });
  if (done) {
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

/** Records a surplus the bank credited back, with its event; nothing when another run recorded it first. */
export async function recordSurplusRefund(tx: Tx, owed: OwedSurplus, now: Date) {
  const { attempt } = owed;
  if (!(await markSurplusRefunded(tx, attempt.id, now))) return;
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
}
