import { maskAccount } from '@ohgood/contract/bank';
import { kstDate, kstStartOfDay } from '@ohgood/contract/kst';
import type { BULK_ACTIONS, CollectionFilter, collectionRow } from '@ohgood/contract/ops-collections';
import { and, eq, gte, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { lockCustomer } from '../../db/locks';
import { auditLog, autopayAttempts, customers, purchases, statements } from '../../db/schema';
import { rowsOf, type Tx, withTx } from '../../db/tx';
import { recordEvent } from '../../events/record-event';
import type { Clock } from '../../lib/clock';
import { AppError, conflict } from '../../lib/errors';
import { debitAttemptNow } from '../autopay/autopay-job';
import { openRetryAttempt } from '../autopay/retry-now';
import { readSetting } from '../autopay/standing';
import type { BankGateway } from '../bank/gateway';
import { writeAudit } from '../ops/audit';
import type { Guard } from '../ops/customers-actions';
import { rowOf } from '../ops/customers-reads';
import type { CustomerRow } from '../ops/customers-repository';
import { actorOf, type StaffPrincipal } from '../ops/staff-principal';
import { type BulkPlan, openPlan, PREVIEW_MINUTES, signPlan } from './bulk-token';
import { debitOf, debitsOf } from './debits';
import { collectionFactsSql, filterSql } from './filter';

/** How many customers one bulk action may name, and how many the preview shows. */
export const BULK_MAX = 500;
const PREVIEW_ROWS = 20;
const LIST_MAX = 200;

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

type Row = z.infer<typeof collectionRow>;
type Facts = { owed: number; oldest_month: string | null; overdue: boolean; failed_today: string | null };

const leftFilter = () => conflict('BULK_PREVIEW_STALE', '미리 본 뒤 조건에서 벗어난 고객입니다.');

/**
 * Collections (docs/rules/operations.md#O18–O21): what risk does about customers who owe. Each act takes the
 * customer's lock and writes its audit row in its own transaction; money moves only through autopay's own
 * idempotent path, and notices only through domain events.
 */
export function createCollectionsService(deps: CollectionsDeps) {
  const { db, clock, bank, previewKey } = deps;
  const today = () => kstDate(clock.now());

  /** The customers a filter names, with what they owe, oldest id first. */
  async function matching(filter: CollectionFilter, limit: number, ids?: number[]): Promise<Row[]> {
    const only = ids ? sql`and c.id = any(${ids})` : sql``;
    const rows = await rowsOf<Record<string, unknown> & Facts>(
      db,
      sql`select c.*, ${collectionFactsSql(today())} from ${customers} c
        where ${filterSql(filter, today())} ${only} order by c.id limit ${limit}`,
    );
    return rows.map((row) => ({
      ...rowOf(customerOf(row)),
      owed: Number(row.owed),
      oldestMonth: row.oldest_month,
      overdue: row.overdue,
      failedToday: row.failed_today,
    }));
  }

  /** A customer still in the filter, read under the lock the action holds. */
  const stillMatches =
    (filter: CollectionFilter, customerId: number): Guard =>
    async (tx) => {
      const [row] = await rowsOf<{ id: number }>(
        tx,
        sql`select c.id from ${customers} c where c.id = ${customerId} and ${filterSql(filter, today())}`,
      );
      if (!row) throw leftFilter();
    };

  /**
   * Records a `bill.payment_requested` event for the customer's oldest bill with unpaid lines, audited; at most
   * one a customer a KST day, counted from the audit trail under the customer's lock.
   */
  async function remindIn(tx: Tx, by: StaffPrincipal, customerId: number, reason: string) {
    await lockCustomer(tx, customerId);
    const now = clock.now();
    const [sent] = await tx
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'customer.remind'),
          eq(auditLog.targetType, 'customer'),
          eq(auditLog.targetId, String(customerId)),
          gte(auditLog.at, kstStartOfDay(kstDate(now))),
        ),
      )
      .limit(1);
    if (sent)
      throw new AppError(429, 'REMINDER_TOO_SOON', '오늘 이미 납부 안내를 보낸 고객입니다. 내일 다시 보낼 수 있어요.');
    const [bill] = await rowsOf<{ month: string; amount: string; overdue: boolean }>(
      tx,
      sql`select s.month, sum(p.price) as amount, bool_or(s.overdue_at is not null) as overdue
        from ${statements} s join ${purchases} p on p.customer_id = s.customer_id and p.statement_month = s.month
        where s.customer_id = ${customerId} and p.status = 'UNPAID' and s.month < ${kstDate(now).slice(0, 7)}
        group by s.month order by s.month limit 1`,
    );
    if (!bill) throw conflict('DEBIT_NOT_RETRYABLE', '안내할 미납 청구서가 없습니다.');
    const amount = Number(bill.amount);
    await recordEvent(
      tx,
      { type: 'bill.payment_requested', customerId, month: bill.month, amount, overdue: bill.overdue },
      now,
    );
    await writeAudit(tx, actorOf(by), now, {
      action: 'customer.remind',
      targetType: 'customer',
      targetId: customerId,
      reason,
      after: { month: bill.month, amount, overdue: bill.overdue },
    });
    return { customerId, month: bill.month, amount };
  }

  return {
    debits: async (customerId: number) => ({ items: await debitsOf(db, customerId) }),

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
        const [open] = await tx
          .select({ id: autopayAttempts.id })
          .from(autopayAttempts)
          .where(and(eq(autopayAttempts.customerId, customerId), eq(autopayAttempts.status, 'PENDING')));
        if (open) throw conflict('DEBIT_NOT_RETRYABLE', '출금이 진행 중입니다. 끝난 뒤에 계좌를 바꿔 주세요.');
        await tx.update(customers).set({ accountName: bankCode, account }).where(eq(customers.id, customerId));
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

    async list(filter: CollectionFilter) {
      const items = await matching(filter, LIST_MAX);
      const [count] = await rowsOf<{ n: number }>(
        db,
        sql`select count(*)::int as n from ${customers} c where ${filterSql(filter, today())}`,
      );
      return { items, total: Number(count?.n ?? 0) };
    },

    /** Who a bulk action would touch now, and the signed plan naming exactly them. */
    async preview(
      by: StaffPrincipal,
      input: CollectionFilter & { action: (typeof BULK_ACTIONS)[number]; reason: string },
    ) {
      const filter = { filter: input.filter, grade: input.grade };
      const rows = await matching(filter, BULK_MAX + 1);
      if (rows.length > BULK_MAX) {
        throw conflict('BULK_PREVIEW_STALE', `한 번에 ${BULK_MAX}명까지 처리할 수 있습니다. 조건을 좁혀 주세요.`);
      }
      const expiresAt = clock.now().getTime() + PREVIEW_MINUTES * 60_000;
      const plan: BulkPlan = {
        staffId: by.staffId,
        action: input.action,
        reason: input.reason,
        filter,
        customerIds: rows.map((row) => row.customerId),
        expiresAt,
      };
      return {
        count: rows.length,
        rows: rows.slice(0, PREVIEW_ROWS),
        token: signPlan(previewKey, plan),
        expiresAt: new Date(expiresAt).toISOString(),
      };
    },

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
export type CollectionsService = ReturnType<typeof createCollectionsService>;

/** A row of `select c.*` (snake_case) as the customers table's typed row. */
function customerOf(row: Record<string, unknown>): CustomerRow {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    account: row.account,
    gradePoint: row.grade_point,
    suspended: row.suspended,
  } as CustomerRow;
}
