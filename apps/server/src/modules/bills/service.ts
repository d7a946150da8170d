import { maskAccount } from '@ohgood/contract/bank';
import { BILL_MSG } from '@ohgood/contract/bill-messages';
import { suspensionReasonOf } from '@ohgood/contract/bill-rules';
import {
  type BillStatus,
  LIMIT_CHANGE_SHOWN_DAYS,
  type LimitChange,
  type PaymentInfo,
  type PayThisMonth,
  type RepayResult,
  type StatementStatus,
  type UnpaidLine,
} from '@ohgood/contract/bills';
import type { DomainEventOf } from '@ohgood/contract/domain-events';
import { gradeOf, monthlyLimitOf } from '@ohgood/contract/grades';
import { kstDate, kstIso, kstMonth, monthDates } from '@ohgood/contract/kst';
import type { PointReason } from '@ohgood/contract/point-reasons';
import { and, asc, desc, eq, gte, inArray, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { lockCustomer } from '../../db/locks';
import { customers, domainEvents, merchants, pointLedger, purchases, repayments, statements } from '../../db/schema';
import { type Executor, type Tx, withTx } from '../../db/tx';
import { recordEvent } from '../../events/record-event';
import type { Clock } from '../../lib/clock';
import { badRequest, conflict, notFound, unprocessable } from '../../lib/errors';
import { POINT_REASONS } from '../points/ledger';
import { earnGradePoints, repaidOnTime, saveGrade } from './grade-points';
import { availableLimit, dueDate, ensureStatement, recomputeSuspension } from './statements';

/** Ledger reasons that count as "points earned" for the this-month card (earn cancellations subtract). */
const EARN_REASONS: PointReason[] = [
  POINT_REASONS.paymentEarn,
  POINT_REASONS.checkin,
  POINT_REASONS.shortsWatch,
  POINT_REASONS.earnCancel,
];

type StatementRow = typeof statements.$inferSelect;

/**
 * The customer's latest change of the monthly limit by risk (its `credit_limit.changed` fact, on the partial
 * index of migration 0058), told while it is the limit in force and at most LIMIT_CHANGE_SHOWN_DAYS old: a
 * later grade change that moved the limit again, or an old change, is not news (ADR 0181). A change to the
 * limit already in force is no change.
 */
async function recentLimitChange(db: Db, customerId: number, inForce: number, now: Date): Promise<LimitChange | null> {
  const [row] = await db
    .select({ payload: domainEvents.payload, at: domainEvents.occurredAt })
    .from(domainEvents)
    .where(
      and(
        eq(domainEvents.customerId, customerId),
        eq(domainEvents.type, 'credit_limit.changed'),
        // Risk setting the limit already in force changed nothing (and sent no notice).
        sql`${domainEvents.payload}->>'from' <> ${domainEvents.payload}->>'to'`,
      ),
    )
    .orderBy(desc(domainEvents.id))
    .limit(1);
  if (!row) return null;
  const { from, to } = row.payload as DomainEventOf<'credit_limit.changed'>;
  const fresh = now.getTime() - row.at.getTime() <= LIMIT_CHANGE_SHOWN_DAYS * 24 * 60 * 60 * 1000;
  return to === inForce && fresh ? { from, to, at: kstIso(row.at) } : null;
}

/** Lifecycle state of a statement that still has unpaid lines (docs/rules/bills-and-grades.md#B2). */
export function statementStatus(
  row: Pick<StatementRow, 'month' | 'extension' | 'overdueAt'>,
  currentMonth: string,
): StatementStatus {
  if (row.overdueAt) return 'OVERDUE';
  if (row.month >= currentMonth) return 'OPEN';
  return row.extension ? 'EXTENDED' : 'DUE';
}

async function unpaidLines(db: Executor, customerId: number) {
  return db
    .select({
      id: purchases.id,
      month: purchases.statementMonth,
      requestName: purchases.requestName,
      price: purchases.price,
      totalPrice: purchases.totalPrice,
      pointUsed: purchases.pointUsed,
      createdAt: purchases.createdAt,
    })
    .from(purchases)
    .where(and(eq(purchases.customerId, customerId), eq(purchases.status, 'UNPAID')))
    .orderBy(asc(purchases.statementMonth), asc(purchases.createdAt), asc(purchases.id));
}

async function statementsByMonth(db: Executor, customerId: number, months: string[]) {
  if (months.length === 0) return new Map<string, StatementRow>();
  const rows = await db
    .select()
    .from(statements)
    .where(and(eq(statements.customerId, customerId), inArray(statements.month, months)));
  return new Map(rows.map((row) => [row.month, row]));
}

/** A placeholder statement for lines whose row is missing (should not happen: purchases ensure it). */
const bareStatement = (month: string) => ({ month, extension: null, overdueAt: null });

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
  const selected = await tx
    .select()
    .from(purchases)
    .where(inArray(purchases.id, ids))
    .orderBy(asc(purchases.id))
    .for('update');
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
  const older = await tx
    .select({ id: purchases.id })
    .from(purchases)
    .where(
      and(eq(purchases.customerId, customerId), eq(purchases.status, 'UNPAID'), lt(purchases.statementMonth, newest)),
    );
  const chosen = new Set(ids);
  if (older.some((line) => !chosen.has(line.id))) throw unprocessable('OLDEST_FIRST', BILL_MSG.oldestFirst);

  const months = [...new Set(selected.map((line) => line.statementMonth))];
  const rows = await statementsByMonth(tx, customerId, months);
  const amount = selected.reduce((sum, line) => sum + line.price, 0);
  const onTime = selected
    .filter((line) => repaidOnTime(rows.get(line.statementMonth) ?? bareStatement(line.statementMonth), now))
    .reduce((sum, line) => sum + line.price, 0);

  const [repayment] = await tx
    .insert(repayments)
    .values({
      customerId,
      amount,
      purchaseIds: ids,
      account: customer.account,
      accountName: customer.accountName,
      createdAt: now,
    })
    .returning({ id: repayments.id });
  if (!repayment) throw new Error('repayment insert returned nothing');
  const updated = await tx
    .update(purchases)
    .set({ status: 'PAID', paidAt: now, repaymentId: repayment.id })
    .where(and(inArray(purchases.id, ids), eq(purchases.status, 'UNPAID')))
    .returning({ id: purchases.id });
  if (updated.length !== ids.length) throw conflict('ALREADY_PAID', BILL_MSG.alreadyPaid);

  // Grade points: 1 per full 10,000 KRW repaid on time, remainder carried (docs/rules/bills-and-grades.md#G2).
  const grade = earnGradePoints(customer, onTime);
  const { gradePoint } = grade;
  await saveGrade(tx, customerId, customer.gradePoint, grade, 'REPAYMENT', now);
  await recordEvent(
    tx,
    {
      type: 'repayment.made',
      customerId,
      repaymentId: repayment.id,
      how,
      amount,
      paymentIds: ids,
      months,
    },
    now,
  );

  for (const month of months) {
    await tx
      .update(statements)
      .set({ paidAt: now })
      .where(
        and(
          eq(statements.customerId, customerId),
          eq(statements.month, month),
          sql`not exists (select 1 from ${purchases} where ${purchases.customerId} = ${customerId}
              and ${purchases.statementMonth} = ${month} and ${purchases.status} = 'UNPAID')`,
        ),
      );
  }
  const suspended = await recomputeSuspension(tx, customerId, now);
  return { repaymentId: repayment.id, amount, paymentIds: ids, gradePoint, suspended };
}

export interface BillsService {
  info(customerId: number): Promise<PaymentInfo>;
  status(customerId: number): Promise<BillStatus>;
  extend(customerId: number): Promise<{ month: string; dueDate: string }>;
  repay(customerId: number, paymentIds: number[]): Promise<RepayResult>;
  thisMonth(customerId: number): Promise<PayThisMonth>;
}

export function createBillsService(db: Db, clock: Clock): BillsService {
  return {
    async info(customerId) {
      const now = clock.now();
      const [customer] = await db.select().from(customers).where(eq(customers.id, customerId));
      if (!customer) throw notFound('CUSTOMER_NOT_FOUND', '고객 정보를 찾을 수 없습니다.');
      const lines = await unpaidLines(db, customerId);
      const groups = new Map<string, UnpaidLine[]>();
      for (const line of lines) {
        const group = groups.get(line.month) ?? [];
        group.push({
          paymentId: line.id,
          date: kstIso(line.createdAt),
          requestName: line.requestName,
          price: line.price,
          totalPrice: line.totalPrice,
          point: line.pointUsed,
        });
        groups.set(line.month, group);
      }
      const oldestMonth = lines[0]?.month;
      const oldest = oldestMonth
        ? (await statementsByMonth(db, customerId, [oldestMonth])).get(oldestMonth)
        : undefined;
      const grade = gradeOf(customer.gradePoint);
      return {
        customerId: customer.id,
        // Masked before it leaves the server: the screens never need the full number.
        account: maskAccount(customer.account),
        accountName: customer.accountName,
        auto: oldest?.extension === 'AUTO',
        extension: Boolean(oldest?.extension),
        balance: await availableLimit(db, customerId, kstMonth(now)),
        gradeName: grade.name,
        pointPercentage: grade.pointPercent,
        limitPrice: monthlyLimitOf(customer),
        unpaidBills: [...groups.values()],
      };
    },

    async status(customerId) {
      const now = clock.now();
      const currentMonth = kstMonth(now);
      const [customer] = await db
        .select({
          suspended: customers.suspended,
          staffSuspended: customers.staffSuspended,
          gradePoint: customers.gradePoint,
          creditLimit: customers.creditLimit,
        })
        .from(customers)
        .where(eq(customers.id, customerId));
      const lines = await unpaidLines(db, customerId);
      const totals = new Map<string, { amount: number; count: number }>();
      for (const line of lines) {
        const total = totals.get(line.month) ?? { amount: 0, count: 0 };
        total.amount += line.price;
        total.count += 1;
        totals.set(line.month, total);
      }
      const rows = await statementsByMonth(db, customerId, [...totals.keys()]);
      const summaries = [...totals.entries()].map(([month, total]) => {
        const row = rows.get(month) ?? bareStatement(month);
        const extension: 'MANUAL' | 'AUTO' | null =
          row.extension === 'MANUAL' || row.extension === 'AUTO' ? row.extension : null;
        return {
          month,
          dueDate: dueDate(month, extension !== null),
          extension,
          status: statementStatus(row, currentMonth),
          amount: total.amount,
          count: total.count,
        };
      });
      return {
        today: kstDate(now),
        suspended: customer?.suspended ?? false,
        suspensionReason: suspensionReasonOf(customer),
        overdueAmount: summaries.filter((s) => s.status === 'OVERDUE').reduce((sum, s) => sum + s.amount, 0),
        statements: summaries,
        limitChange: customer ? await recentLimitChange(db, customerId, monthlyLimitOf(customer), now) : null,
      };
    },

    async extend(customerId) {
      const now = clock.now();
      const today = kstDate(now);
      return withTx(db, async (tx) => {
        await lockCustomer(tx, customerId);
        const [oldest] = await tx
          .select({ month: sql<string | null>`min(${purchases.statementMonth})` })
          .from(purchases)
          .where(and(eq(purchases.customerId, customerId), eq(purchases.status, 'UNPAID')));
        const month = oldest?.month ?? null;
        if (!month || month >= kstMonth(now)) {
          throw unprocessable('EXTENSION_NOT_ALLOWED', BILL_MSG.extensionNotIssued);
        }
        await ensureStatement(tx, customerId, month);
        const [row] = await tx
          .select()
          .from(statements)
          .where(and(eq(statements.customerId, customerId), eq(statements.month, month)))
          .for('update');
        if (!row) throw unprocessable('EXTENSION_NOT_ALLOWED', BILL_MSG.extensionNotIssued);
        if (row.overdueAt) throw unprocessable('EXTENSION_NOT_ALLOWED', BILL_MSG.extensionOverdue);
        if (row.extension) throw conflict('ALREADY_EXTENDED', BILL_MSG.alreadyExtended);
        // The request must come while the statement is still payable on its original due date.
        if (today > dueDate(month, false)) throw unprocessable('EXTENSION_NOT_ALLOWED', BILL_MSG.extensionPastDue);
        await tx
          .update(statements)
          .set({ extension: 'MANUAL', extendedAt: now })
          .where(and(eq(statements.id, row.id), sql`${statements.extension} is null`));
        const extended = { month, dueDate: dueDate(month, true) };
        await recordEvent(tx, { type: 'statement.extended', customerId, by: 'CUSTOMER', penalty: 0, ...extended }, now);
        return extended;
      });
    },

    async repay(customerId, paymentIds) {
      const ids = [...new Set(paymentIds)].sort((a, b) => a - b);
      if (ids.length === 0) throw badRequest('NO_SELECTION', BILL_MSG.noSelection);
      const now = clock.now();
      return withTx(db, (tx) => repayLines(tx, customerId, ids, now, 'EARLY'));
    },

    async thisMonth(customerId) {
      const now = clock.now();
      const month = kstMonth(now);
      const [customer] = await db
        .select({ pointBalance: customers.pointBalance })
        .from(customers)
        .where(eq(customers.id, customerId));
      const items = await db
        .select({
          id: purchases.id,
          createdAt: purchases.createdAt,
          requestName: purchases.requestName,
          merchant: merchants.name,
          amount: purchases.price,
          point: purchases.pointEarned,
        })
        .from(purchases)
        .innerJoin(merchants, eq(merchants.id, purchases.merchantId))
        .where(
          and(
            eq(purchases.customerId, customerId),
            eq(purchases.statementMonth, month),
            ne(purchases.status, 'REFUNDED'),
          ),
        )
        .orderBy(desc(purchases.createdAt), desc(purchases.id));
      const dates = monthDates(month);
      const [earned] = await db
        .select({ sum: sql<string>`coalesce(sum(${pointLedger.amount}), 0)` })
        .from(pointLedger)
        .where(
          and(
            eq(pointLedger.customerId, customerId),
            gte(pointLedger.kstDate, dates.first),
            lt(pointLedger.kstDate, dates.nextFirst),
            inArray(pointLedger.reason, EARN_REASONS),
          ),
        );
      const amount = items.reduce((sum, item) => sum + item.amount, 0);
      const pointsThisMonth = Number(earned?.sum ?? 0);
      const pointBalance = customer?.pointBalance ?? 0;
      // Both spellings carry the same values (see the contract's payThisMonth).
      return {
        month,
        sumTotalPrice: amount,
        sumPointThisMonth: pointsThisMonth,
        currentPointBalance: pointBalance,
        amount,
        pointsThisMonth,
        pointBalance,
        items: items.map((item) => ({
          paymentId: item.id,
          date: kstIso(item.createdAt),
          requestName: item.requestName,
          totalPrice: item.amount,
          point: item.point,
          id: item.id,
          merchant: item.merchant,
          amount: item.amount,
        })),
      };
    },
  };
}
