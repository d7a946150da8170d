import { BILL_MSG } from '@ohgood/contract/bill-messages';
import type { RepayResult } from '@ohgood/contract/bills';
import type { DomainEvent } from '@ohgood/contract/domain-events';
import { kstDate, kstMonth } from '@ohgood/contract/kst';
import type { Db } from '../../db/client';
import { lockCustomer } from '../../db/locks';
import { type Tx, withTx } from '../../db/tx';
import { recordEvent, recordEvents } from '../../events/record-event';
import type { Clock } from '../../lib/clock';
import { badRequest, conflict, unprocessable } from '../../lib/errors';
import { lockStatement, markExtended, oldestUnpaidMonth } from './bills-repository';
import { earnGradePoints, gradeChange, repaidOnTime } from './grade-points';
import { lockLinesToRepay, writeRepayment } from './repayment-write';
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
  const { lines: selected, olderUnpaid } = await lockLinesToRepay(tx, customerId, ids);
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
  if (olderUnpaid) throw unprocessable('OLDEST_FIRST', BILL_MSG.oldestFirst);

  const months = [...new Set(selected.map((line) => line.statementMonth))];
  const amount = selected.reduce((sum, line) => sum + line.price, 0);
  const onTime = selected
    .filter((line) => repaidOnTime(line.statement, now))
    .reduce((sum, line) => sum + line.price, 0);
  // Grade points: 1 per full 10,000 KRW repaid on time, remainder carried (docs/rules/bills-and-grades.md#G2).
  const grade = earnGradePoints(customer, onTime);

  const { repaymentId, paid } = await writeRepayment(
    tx,
    {
      customerId,
      amount,
      purchaseIds: ids,
      account: customer.account,
      accountName: customer.accountName,
      createdAt: now,
    },
    months,
    grade,
  );
  if (paid !== ids.length) throw conflict('ALREADY_PAID', BILL_MSG.alreadyPaid);
  const { gradePoint } = grade;
  const events: DomainEvent[] = [];
  const changed = gradeChange(customerId, customer.gradePoint, gradePoint, 'REPAYMENT');
  if (changed) events.push(changed);
  events.push({ type: 'repayment.made', customerId, repaymentId, how, amount, paymentIds: ids, months });
  await recordEvents(tx, events, now);

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
