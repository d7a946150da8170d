import { BILL_MSG } from '@ohgood/contract/bill-messages';
import type { RepayResult } from '@ohgood/contract/bills';
import { kstDate, kstMonth } from '@ohgood/contract/kst';
import type { Db } from '../../db/client';
import { lockCustomer } from '../../db/locks';
import { type Tx, withTx } from '../../db/tx';
import { recordEvent } from '../../events/record-event';
import type { Clock } from '../../lib/clock';
import { badRequest, conflict, unprocessable } from '../../lib/errors';
import { bareStatement } from './bills-reads';
import {
  insertRepayment,
  lockLines,
  lockStatement,
  markExtended,
  markLinesPaid,
  markStatementPaidIfSettled,
  oldestUnpaidMonth,
  statementsByMonth,
  unpaidLinesBefore,
} from './bills-repository';
import { earnGradePoints, repaidOnTime, saveGrade } from './grade-points';
import { dueDate, ensureStatement, recomputeSuspension } from './statements';

/**
 * Repays the customer's lines `ids` (sorted, distinct, non-empty) inside the caller's transaction
 * (docs/rules/bills-and-grades.md#B6–#B8): the customer's early payment and autopay's debit (`how`) record a
 * repayment the same way.
 */
export async function repayLines(
  tx: Tx,
  customerId: number,
  ids: number[],
  now: Date,
  how: 'EARLY' | 'AUTOMATIC',
): Promise<RepayResult> {
  const customer = await lockCustomer(tx, customerId);
  const selected = await lockLines(tx, ids);
  // Someone else's line looks exactly like a missing one: no oracle for other customers' ids.
  if (selected.length !== ids.length || selected.some((line) => line.customerId !== customerId)) {
    throw badRequest('INVALID_PAYMENT', BILL_MSG.invalidLines);
  }
  if (selected.some((line) => line.status === 'REFUNDED')) {
    throw conflict('NOT_PAYABLE', BILL_MSG.invalidLines);
  }
  if (selected.some((line) => line.status !== 'UNPAID')) throw conflict('ALREADY_PAID', BILL_MSG.alreadyPaid);
  // One owner per won (#B18): a line autopay is debiting right now is settled by the bank's answer, not twice.
  if (how === 'EARLY' && selected.some((line) => line.collectingAttemptId !== null)) {
    throw conflict('AUTOPAY_IN_PROGRESS', BILL_MSG.autopayInProgress);
  }

  // Oldest first: every unpaid line of a month older than the newest selected one must be selected.
  const newest =
    selected
      .map((line) => line.statementMonth)
      .sort()
      .at(-1) ?? '';
  const older = await unpaidLinesBefore(tx, customerId, newest);
  const chosen = new Set(ids);
  if (older.some((line) => !chosen.has(line.id))) throw unprocessable('OLDEST_FIRST', BILL_MSG.oldestFirst);

  const months = [...new Set(selected.map((line) => line.statementMonth))];
  const rows = await statementsByMonth(tx, customerId, months);
  const amount = selected.reduce((sum, line) => sum + line.price, 0);
  const onTime = selected
    .filter((line) => repaidOnTime(rows.get(line.statementMonth) ?? bareStatement(line.statementMonth), now))
    .reduce((sum, line) => sum + line.price, 0);

  const repaymentId = await insertRepayment(tx, {
    customerId,
    amount,
    purchaseIds: ids,
    account: customer.account,
    accountName: customer.accountName,
    createdAt: now,
  });
  const paid = await markLinesPaid(tx, ids, repaymentId, now);
  if (paid !== ids.length) throw conflict('ALREADY_PAID', BILL_MSG.alreadyPaid);

  // Grade points: 1 per full 10,000 KRW repaid on time, remainder carried (docs/rules/bills-and-grades.md#G2).
  const grade = earnGradePoints(customer, onTime);
  const { gradePoint } = grade;
  await saveGrade(tx, customerId, customer.gradePoint, grade, 'REPAYMENT', now);
  await recordEvent(
    tx,
    {
      type: 'repayment.made',
      customerId,
      repaymentId,
      how,
      amount,
      paymentIds: ids,
      months,
    },
    now,
  );

  for (const month of months) await markStatementPaidIfSettled(tx, customerId, month, now);
  const suspended = await recomputeSuspension(tx, customerId, now);
  return { repaymentId, amount, paymentIds: ids, gradePoint, suspended };
}

/** What a customer does with their bills: extend the oldest statement once, repay lines early. */
export function createBillActions(db: Db, clock: Clock) {
  return {
    async extend(customerId: number): Promise<{ month: string; dueDate: string }> {
      const now = clock.now();
      const today = kstDate(now);
      return withTx(db, async (tx) => {
        await lockCustomer(tx, customerId);
        const month = await oldestUnpaidMonth(tx, customerId);
        if (!month || month >= kstMonth(now)) {
          throw unprocessable('EXTENSION_NOT_ALLOWED', BILL_MSG.extensionNotIssued);
        }
        await ensureStatement(tx, customerId, month);
        const row = await lockStatement(tx, customerId, month);
        if (!row) throw unprocessable('EXTENSION_NOT_ALLOWED', BILL_MSG.extensionNotIssued);
        if (row.overdueAt) throw unprocessable('EXTENSION_NOT_ALLOWED', BILL_MSG.extensionOverdue);
        if (row.extension) throw conflict('ALREADY_EXTENDED', BILL_MSG.alreadyExtended);
        // The request must come while the statement is still payable on its original due date.
        if (today > dueDate(month, false)) throw unprocessable('EXTENSION_NOT_ALLOWED', BILL_MSG.extensionPastDue);
        await markExtended(tx, row.id, now);
        const extended = { month, dueDate: dueDate(month, true) };
        await recordEvent(tx, { type: 'statement.extended', customerId, by: 'CUSTOMER', penalty: 0, ...extended }, now);
        return extended;
      });
    },

    async repay(customerId: number, paymentIds: number[]): Promise<RepayResult> {
      const ids = [...new Set(paymentIds)].sort((a, b) => a - b);
      if (ids.length === 0) throw badRequest('NO_SELECTION', BILL_MSG.noSelection);
      const now = clock.now();
      return withTx(db, (tx) => repayLines(tx, customerId, ids, now, 'EARLY'));
    },
  };
}
