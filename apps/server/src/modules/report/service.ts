import { monthlyLimitOf } from '@ohgood/contract/grades';
import { addMonths, kstIso, kstMonth } from '@ohgood/contract/kst';
import type { AdviceReport, ScoreReport, SpendingAnalysis } from '@ohgood/contract/report';
import { SCORE_MESSAGES, SCORE_MONTHS } from '@ohgood/contract/report-rules';
import { and, eq, gte, lte, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { customers, merchants, purchases, statements } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import type { BillsService } from '../bills/service';
import { buildAdvice } from './advice';
import { analyzeSpending, type SpendLine, windowMonths } from './analysis';
import { categoryOf } from './categorize';
import { computeScore } from './score';

/** Purchases the report counts: the customer's own, not refunded, of the statement months from..to. */
const counted = (customerId: number, from: string, to: string) =>
  and(
    eq(purchases.customerId, customerId),
    ne(purchases.status, 'REFUNDED'),
    gte(purchases.statementMonth, from),
    lte(purchases.statementMonth, to),
  );

export interface ReportService {
  score(customerId: number): Promise<ScoreReport>;
  analyze(customerId: number, windowMonths: number): Promise<SpendingAnalysis>;
  advice(customerId: number): Promise<AdviceReport>;
}

/**
 * The report (docs/rules/report.md) from the customer's own records: purchases (non-refunded, by statement month,
 * at their billed amount, the same figure as the this-month card), statements and grade. The rules live
 * in the pure modules score.ts, analysis.ts and advice.ts; this file only gathers their inputs.
 */
export function createReportService(db: Db, clock: Clock, bills: BillsService): ReportService {
  async function customer(customerId: number) {
    const [row] = await db
      .select({
        name: customers.name,
        gradePoint: customers.gradePoint,
        creditLimit: customers.creditLimit,
        suspended: customers.suspended,
        pointBalance: customers.pointBalance,
      })
      .from(customers)
      .where(eq(customers.id, customerId));
    if (!row) throw notFound('CUSTOMER_NOT_FOUND', '고객 정보를 찾을 수 없습니다.');
    return row;
  }

  /** Categorised spend lines of the statement months from..to (inclusive). */
  async function spendLines(customerId: number, from: string, to: string): Promise<SpendLine[]> {
    const rows = await db
      .select({
        month: purchases.statementMonth,
        amount: purchases.price,
        requestName: purchases.requestName,
        merchantName: merchants.name,
        merchantCategory: merchants.category,
      })
      .from(purchases)
      .innerJoin(merchants, eq(merchants.id, purchases.merchantId))
      .where(counted(customerId, from, to));
    return rows.map((row) => ({ month: row.month, amount: row.amount, category: categoryOf(row) }));
  }

  /** Count and billed sum of non-refunded purchases of the statement months from..to. */
  async function purchaseTotals(customerId: number, from: string, to: string) {
    const [row] = await db
      .select({
        count: sql<number>`count(*)::int`,
        amount: sql<string>`coalesce(sum(${purchases.price}), 0)`,
      })
      .from(purchases)
      .where(counted(customerId, from, to));
    return { count: Number(row?.count ?? 0), amount: Number(row?.amount ?? 0) };
  }

  return {
    async score(customerId) {
      const current = kstMonth(clock.now());
      const me = await customer(customerId);
      // The statement due this month is last month's; auto-extensions happen the month after the statement.
      const rows = await db
        .select({ month: statements.month, extension: statements.extension })
        .from(statements)
        .where(
          and(
            eq(statements.customerId, customerId),
            gte(statements.month, addMonths(current, -SCORE_MONTHS)),
            lte(statements.month, addMonths(current, -1)),
          ),
        );
      const dueNow = rows.find((row) => row.month === addMonths(current, -1));
      const year = await purchaseTotals(customerId, addMonths(current, 1 - SCORE_MONTHS), current);
      const thisMonth = await purchaseTotals(customerId, current, current);
      const result = computeScore({
        autoExtendedNow: dueNow?.extension === 'AUTO',
        extendedNow: dueNow?.extension === 'MANUAL',
        autoExtensions12m: rows.filter((row) => row.extension === 'AUTO').length,
        suspended: me.suspended,
        gradePoint: me.gradePoint,
        spendThisMonth: thisMonth.amount,
        purchases12m: year.count,
        amount12m: year.amount,
      });
      return {
        ohgoodScore: result.score,
        message: SCORE_MESSAGES[result.band](me.name),
        band: result.band,
        factors: result.factors,
      };
    },

    async analyze(customerId, count) {
      const current = kstMonth(clock.now());
      const months = windowMonths(current, count);
      const lines = await spendLines(customerId, months[0] ?? current, current);
      return analyzeSpending(lines, current, count);
    },

    async advice(customerId) {
      const now = clock.now();
      const current = kstMonth(now);
      const me = await customer(customerId);
      const status = await bills.status(customerId);
      const recent = analyzeSpending(await spendLines(customerId, addMonths(current, -1), current), current, 2);
      const [any] = await db
        .select({ id: purchases.id })
        .from(purchases)
        .where(and(eq(purchases.customerId, customerId), ne(purchases.status, 'REFUNDED')))
        .limit(1);
      const thisMonth = recent.monthly[current];
      const advices = buildAdvice({
        name: me.name,
        today: status.today,
        hasPurchases: Boolean(any),
        spendThisMonth: thisMonth?.totalSpend ?? 0,
        spendLastMonth: recent.monthly[addMonths(current, -1)]?.totalSpend ?? 0,
        categoriesThisMonth: thisMonth?.categories ?? [],
        monthlyLimit: monthlyLimitOf(me),
        pointBalance: me.pointBalance,
        suspended: status.suspended,
        overdueAmount: status.overdueAmount,
        statements: status.statements,
      });
      return {
        advices,
        meta: { generatedAt: kstIso(now), month: current, source: 'rules', count: advices.length },
      };
    },
  };
}
