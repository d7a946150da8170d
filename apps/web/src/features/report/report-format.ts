import type { ScoreFactor } from '@ohgood/contract/report';
import type { SpendingCategory } from '@ohgood/contract/report-rules';
import { SCORE_MAX, SCORE_MIN, SCORE_WEIGHTS } from '@ohgood/contract/report-rules';

/** The gauge fills score / 1000, clamped to 0–100 %. */
export function gaugePercent(score: number): number {
  return Math.min(100, Math.max(0, (score / SCORE_MAX) * 100));
}

/** Chart labels in 만원 or 천원: 41,000 → '4.1만원', 120,000 → '12만원', 8,200 → '8천원'. */
export function chartAmount(amount: number): string {
  if (amount >= 10_000) return `${Math.round(amount / 1_000) / 10}만원`;
  if (amount >= 1_000) return `${Math.floor(amount / 1_000)}천원`;
  return `${amount}원`;
}

/** '2026-11' → '11월'. */
export const monthShort = (month: string) => `${Number(month.slice(5, 7))}월`;

/** '2026-11' → '2026년 11월'. */
export const monthLong = (month: string) => `${month.slice(0, 4)}년 ${Number(month.slice(5, 7))}월`;

/** Fixed colour per category, so a category looks the same in every month and chart. */
export const CATEGORY_COLORS: Record<SpendingCategory, string> = {
  식비: '#ff6b3d',
  '쇼핑/패션/뷰티': '#e0529c',
  고정비: '#5b6cf0',
  교통비: '#2bb673',
  생활: '#f0a500',
  '여가/문화/교육': '#8b5cf6',
  기타: '#9aa1ac',
};

/** Bar heights in percent of the tallest month (a month with spending always shows a sliver). */
export function barHeights(totals: number[]): number[] {
  const max = Math.max(0, ...totals);
  return totals.map((total) => (max === 0 || total === 0 ? 0 : Math.max(4, (total / max) * 100)));
}

/**
 * The score's factors as the card tells them: what helps (a factor costing under half a point, or at most
 * a tenth of what it could cost) and what hurts (whole points lost, largest first).
 */
export function splitFactors(factors: readonly ScoreFactor[]): { helps: ScoreFactor[]; hurts: ScoreFactor[] } {
  const helps: ScoreFactor[] = [];
  const hurts: ScoreFactor[] = [];
  for (const factor of factors) {
    const most = (SCORE_MAX - SCORE_MIN) * SCORE_WEIGHTS[factor.key];
    if (Math.round(factor.contribution) === 0 || factor.contribution <= most / 10) helps.push(factor);
    else hurts.push(factor);
  }
  // Helps: the weightiest first (what matters most is what the customer does right).
  helps.sort((a, b) => SCORE_WEIGHTS[b.key] - SCORE_WEIGHTS[a.key]);
  return { helps, hurts };
}
