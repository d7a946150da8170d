import { addMonths } from '@ohgood/contract/kst';
import type { CategorySpend, MonthSpend, SpendingAnalysis } from '@ohgood/contract/report';
import { SPENDING_CATEGORIES, type SpendingCategory } from '@ohgood/contract/report-rules';

/** One non-refunded purchase, already categorised, with its KST statement month and billed amount. */
export interface SpendLine {
  month: string;
  category: SpendingCategory;
  amount: number;
}

/** The `count` consecutive months ending with `last`, oldest first. */
export function windowMonths(last: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => addMonths(last, i - count + 1));
}

const monthNumber = (month: string) => Number(month.slice(5, 7));
const year = (month: string) => month.slice(0, 4);

/** '9월 ~ 11월'; with the years when the window crosses one ('2025년 12월 ~ 2026년 2월'); '11월' alone. */
export function periodLabel(months: string[]): string {
  const first = months[0];
  const last = months.at(-1);
  if (!first || !last) return '';
  if (first === last) return `${monthNumber(first)}월`;
  if (year(first) !== year(last)) {
    return `${year(first)}년 ${monthNumber(first)}월 ~ ${year(last)}년 ${monthNumber(last)}월`;
  }
  return `${monthNumber(first)}월 ~ ${monthNumber(last)}월`;
}

/** Categories by amount, descending (ties in category order), with one-decimal shares and competition rank. */
export function rankCategories(totals: Map<SpendingCategory, number>): CategorySpend[] {
  const total = [...totals.values()].reduce((sum, amount) => sum + amount, 0);
  const sorted = SPENDING_CATEGORIES.filter((name) => (totals.get(name) ?? 0) > 0)
    .map((name) => ({ name, amount: totals.get(name) ?? 0 }))
    .sort((a, b) => b.amount - a.amount);
  return sorted.map((entry) => ({
    ...entry,
    percentage: Math.round((entry.amount / total) * 1000) / 10,
    // Competition ranking: one more than the number of categories that spent strictly more.
    rank: sorted.findIndex((other) => other.amount === entry.amount) + 1,
  }));
}

/**
 * Spending analysis (report.md#D3): the window's months ending with `currentMonth`, each zero-filled, with
 * totals and ranked categories. Lines outside the window are ignored.
 */
export function analyzeSpending(lines: SpendLine[], currentMonth: string, count: number): SpendingAnalysis {
  const months = windowMonths(currentMonth, count);
  const byMonth = new Map(months.map((month) => [month, new Map<SpendingCategory, number>()]));
  for (const line of lines) {
    const totals = byMonth.get(line.month);
    if (totals) totals.set(line.category, (totals.get(line.category) ?? 0) + line.amount);
  }
  const monthly: Record<string, MonthSpend> = {};
  for (const [month, totals] of byMonth) {
    const categories = rankCategories(totals);
    monthly[month] = { totalSpend: categories.reduce((sum, c) => sum + c.amount, 0), categories };
  }
  return { period: periodLabel(months), months, monthly, monthlyMap: monthly, selectedMonth: currentMonth };
}
