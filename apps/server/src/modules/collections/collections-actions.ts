import { maskAccount } from '@ohgood/contract/bank';
import { kstDate, kstStartOfDay } from '@ohgood/contract/kst';
import type { WorkListFilter } from '@ohgood/contract/ops-desk';
import type { Db } from '../../db/client';
import { lockCustomer } from '../../db/locks';
import { type Tx, withTx } from '../../db/tx';
import { recordEvent } from '../../events/record-event';
import type { Clock } from '../../lib/clock';
import { AppError, conflict } from '../../lib/errors';
import { debitAttemptNow } from '../autopay/autopay-job';
import { openRetryAttempt } from '../autopay/retry-now';
import { readSetting } from '../autopay/standing';
import type { BankGateway } from '../bank/gateway';
import { writeAudit } from '../ops/audit';
import type { Guard } from '../ops/customers-actions';
import { actorOf, type StaffPrincipal } from '../ops/staff-principal';
import { openPlan } from './bulk-token';
import {
  hasPendingDebit,
  isMatching,
  oldestUnpaidBill,
  remindedSince,
  setDebitAccount,
} from './collections-repository';
import { debitOf } from './debits';

export interface CollectionsDeps {
  db: Db;
  clock: Clock;
  bank: BankGateway;
  /** Signs bulk previews (derived from the server's secret). */
  previewKey: Buffer;
  /** The console's suspend and lift, each audited in its transaction. */
  suspend(by: StaffPrincipal, customerId: number, reason: string, guard?: Guard): Promise<unknown>;
  lift(by: StaffPrincipal, customerId: number, reason: string, guard?: Guard): Promise<unknown>;
}

const leftFilter = () => conflict('BULK_PREVIEW_STALE', '미리 본 뒤 조건에서 벗어난 고객입니다.');

/**
 * What risk does about customers who owe. Each act takes the customer's lock and writes its audit row in its
 * own transaction; money moves only through autopay's own idempotent path, and notices only through domain
 * events.
 */
export function createCollectionsActions(deps: CollectionsDeps) {
  const { db, clock, bank, previewKey } = deps;

  /** A customer still in the filter, read under the lock the action holds. */
  const stillMatches =
    (filter: WorkListFilter, customerId: number): Guard =>
    async (tx) => {
      if (!(await isMatching(tx, filter, kstDate(clock.now()), customerId))) throw leftFilter();
    };

  /**
   * Records a `bill.payment_requested` event for the customer's oldest bill with unpaid lines, audited; at most
   * one a customer a KST day, counted from the audit trail under the customer's lock.
   */
  async function remindIn(tx: Tx, by: StaffPrincipal, customerId: number, reason: string) {
    await lockCustomer(tx, customerId);
    const now = clock.now();
    if (await remindedSince(tx, customerId, kstStartOfDay(kstDate(now))))
      throw new AppError(429, 'REMINDER_TOO_SOON', '오늘 이미 납부 안내를 보낸 고객입니다. 내일 다시 보낼 수 있어요.');
    const bill = await oldestUnpaidBill(tx, customerId, kstDate(now).slice(0, 7));
    if (!bill) throw conflict('DEBIT_NOT_RETRYABLE', '안내할 미납 청구서가 없습니다.');
    const { month, amount, overdue } = bill;
    await recordEvent(tx, { type: 'bill.payment_requested', customerId, month, amount, overdue }, now);
    await writeAudit(tx, actorOf(by), now, {
      action: 'customer.remind',
      targetType: 'customer',
      targetId: customerId,
      reason,
      after: { month, amount, overdue },
    });
    return { customerId, month, amount };
  }

  return {
    /**
     * Retries a bill's autopay debit now (docs/rules/operations.md#O18): opens its attempt (or takes the open
     * one) under the customer's lock with the audit row, then debits it through autopay's own claim, key and
     * settlement. The bank's answer comes back on the debit.
     */
    async retryDebit(by: StaffPrincipal, customerId: number, statementId: number, reason: string) {
      const opened = await withTx(db, async (tx) => {
        await lockCustomer(tx, customerId);
        const now = clock.now();
        const attempt = await openRetryAttempt(tx, customerId, statementId, kstDate(now), now);
        await writeAudit(tx, actorOf(by), now, {
          action: 'autopay.retry',
          targetType: 'customer',
          targetId: customerId,
          reason,
          after: { statementId, attemptId: attempt.attemptId, created: attempt.created },
        });
        return attempt;
      });
      await debitAttemptNow(db, bank, clock, opened.attemptId);
      return { debit: await debitOf(db, opened.attemptId), created: opened.created };
    },

    /**
     * Links a new debit account the customer gave staff (docs/rules/operations.md#O19). The consent and the
     * 1원 인증 are the account's, so both lapse with the old one: autopay waits, pending, until the customer
     * agrees again and types the 1원 code in the app; staff never see or type a code.
     */
    async changeDebitAccount(
      by: StaffPrincipal,
      customerId: number,
      bankCode: string,
      account: string,
      reason: string,
    ) {
      return withTx(db, async (tx) => {
        const before = await lockCustomer(tx, customerId);
        if (await hasPendingDebit(tx, customerId))
          throw conflict('DEBIT_NOT_RETRYABLE', '출금이 진행 중입니다. 끝난 뒤에 계좌를 바꿔 주세요.');
        await setDebitAccount(tx, customerId, bankCode, account);
        const now = clock.now();
        await writeAudit(tx, actorOf(by), now, {
          action: 'customer.debit-account',
          targetType: 'customer',
          targetId: customerId,
          reason,
          before: { bank: before.accountName, account: maskAccount(before.account) },
          after: { bank: bankCode, account: maskAccount(account) },
        });
        const setting = await readSetting(tx, customerId, now);
        return { customerId, bank: bankCode, account: setting.account, state: setting.state };
      });
    },

    remind: (by: StaffPrincipal, customerId: number, reason: string) =>
      withTx(db, (tx) => remindIn(tx, by, customerId, reason)),

    /**
     * Acts on exactly the previewed customers, one transaction and one audit row each; a customer who left the
     * filter since, or to whom the action no longer applies, is reported and not touched.
     */
    async confirm(by: StaffPrincipal, token: string) {
      const plan = openPlan(previewKey, token, by.staffId, clock.now());
      const done: number[] = [];
      const skipped: Array<{ customerId: number; why: string }> = [];
      for (const customerId of plan.customerIds) {
        const guard = stillMatches(plan.filter, customerId);
        try {
          if (plan.action === 'remind') {
            await withTx(db, async (tx) => {
              await lockCustomer(tx, customerId);
              await guard(tx);
              await remindIn(tx, by, customerId, plan.reason);
            });
          } else await deps[plan.action](by, customerId, plan.reason, guard);
          done.push(customerId);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          skipped.push({ customerId, why: error.message });
        }
      }
      return { action: plan.action, done, skipped };
    },
  };
}
