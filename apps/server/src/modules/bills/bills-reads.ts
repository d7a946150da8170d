import { maskAccount } from '@ohgood/contract/bank';
import { suspensionReasonOf } from '@ohgood/contract/bill-rules';
import {
  type BillStatus,
  LIMIT_CHANGE_SHOWN_DAYS,
  type LimitChange,
  type PaymentInfo,
  type PayThisMonth,
  type StatementStatus,
  type UnpaidLine,
} from '@ohgood/contract/bills';
import type { DomainEventOf } from '@ohgood/contract/domain-events';
import { gradeOf, monthlyLimitOf } from '@ohgood/contract/grades';
import { kstDate, kstIso, kstMonth, monthDates } from '@ohgood/contract/kst';
import type { PointReason } from '@ohgood/contract/point-reasons';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import { POINT_REASONS } from '../points/ledger';
import {
  customerStanding,
  findCustomer,
  latestLimitChange,
  monthLines,
  pointBalanceOf,
  pointsSumBetween,
  type StatementRow,
  statementsByMonth,
  unpaidLines,
} from './bills-repository';
import { availableLimit, dueDate } from './statements';

/** Ledger reasons that count as "points earned" for the this-month card (earn cancellations subtract). */
const EARN_REASONS: PointReason[] = [
  POINT_REASONS.paymentEarn,
  POINT_REASONS.checkin,
  POINT_REASONS.shortsWatch,
  POINT_REASONS.earnCancel,
];

/** A placeholder statement for lines whose row is missing (should not happen: purchases ensure it). */
export const bareStatement = (month: string) => ({ month, extension: null, overdueAt: null });

/** Lifecycle state of a statement that still has unpaid lines (docs/rules/bills-and-grades.md#B2). */
export function statementStatus(
  row: Pick<StatementRow, 'month' | 'extension' | 'overdueAt'>,
  currentMonth: string,
): StatementStatus {
  if (row.overdueAt) return 'OVERDUE';
  if (row.month >= currentMonth) return 'OPEN';
  return row.extension ? 'EXTENDED' : 'DUE';
}

/**
 * The customer's latest change of the monthly limit by risk, told while it is the limit in force and at most
 * LIMIT_CHANGE_SHOWN_DAYS old: a later grade change that moved the limit again, or an old change, is not news
 * (ADR 0181). A change to the limit already in force is no change.
 */
async function recentLimitChange(db: Db, customerId: number, inForce: number, now: Date): Promise<LimitChange | null> {
  const row = await latestLimitChange(db, customerId);
  if (!row) return null;
  const { from, to } = row.payload as DomainEventOf<'credit_limit.changed'>;
  const fresh = now.getTime() - row.at.getTime() <= LIMIT_CHANGE_SHOWN_DAYS * 24 * 60 * 60 * 1000;
  return to === inForce && fresh ? { from, to, at: kstIso(row.at) } : null;
}

/** What a customer reads of their bills: unpaid lines, statements and their status, this month's card. */
export function createBillReads(db: Db, clock: Clock) {
  return {
    async info(customerId: number): Promise<PaymentInfo> {
      const now = clock.now();
      const customer = await findCustomer(db, customerId);
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

    async status(customerId: number): Promise<BillStatus> {
      const now = clock.now();
      const currentMonth = kstMonth(now);
      const customer = await customerStanding(db, customerId);
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

    async thisMonth(customerId: number): Promise<PayThisMonth> {
      const now = clock.now();
      const month = kstMonth(now);
      const balance = await pointBalanceOf(db, customerId);
      const items = await monthLines(db, customerId, month);
      const pointsThisMonth = await pointsSumBetween(db, customerId, monthDates(month), EARN_REASONS);
      const amount = items.reduce((sum, item) => sum + item.amount, 0);
      const pointBalance = balance ?? 0;
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
