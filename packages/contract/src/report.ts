import { z } from 'zod';
import { defineEndpoint, enveloped } from './endpoint';
import { ADVICE_LEVELS, ANALYSIS_WINDOW, SCORE_BANDS, SCORE_FACTOR_KEYS, SPENDING_CATEGORIES } from './report-rules';

/* POST /api/dash/saymyname (report.md#D1). No request body: the customer comes from the token. */

export const scoreFactor = z.object({
  key: z.enum(SCORE_FACTOR_KEYS),
  label: z.string(),
  /** Score points this factor costs (700 × wᵢ × rᵢ, one decimal); the list is sorted by it, largest first. */
  contribution: z.number(),
  /** The customer's own figure behind it, e.g. '등급 점수 48 / 150'. */
  detail: z.string(),
  /** What would raise the score on this factor. */
  tip: z.string(),
});
export type ScoreFactor = z.infer<typeof scoreFactor>;

export const scoreReport = z.object({
  ohgoodScore: z.number().int().min(300).max(1000),
  message: z.string(),
  band: z.enum(SCORE_BANDS),
  factors: z.array(scoreFactor),
});
export type ScoreReport = z.infer<typeof scoreReport>;

/* POST /api/dash/analyze {windowMonths} (report.md#D3) */

/**
 * Extra fields (a customerId, say) are dropped, never used: the customer comes from the token. No body at
 * all means the default window.
 */
export const analyzeRequest = z
  .object({
    windowMonths: z.number().int().min(ANALYSIS_WINDOW.min).max(ANALYSIS_WINDOW.max).default(ANALYSIS_WINDOW.default),
  })
  .nullish();
export type AnalyzeRequest = z.input<typeof analyzeRequest>;

export const categorySpend = z.object({
  name: z.enum(SPENDING_CATEGORIES),
  amount: z.number().int(),
  /** Share of the month's total, one decimal. */
  percentage: z.number(),
  /** Competition rank: equal amounts share a rank (1, 2, 2, 4). */
  rank: z.number().int().min(1),
});
export type CategorySpend = z.infer<typeof categorySpend>;

export const monthSpend = z.object({
  totalSpend: z.number().int(),
  /** Categories with spending, amount descending. Empty for a month without purchases. */
  categories: z.array(categorySpend),
});
export type MonthSpend = z.infer<typeof monthSpend>;

export const spendingAnalysis = z.object({
  /** e.g. '9월 ~ 11월'. */
  period: z.string(),
  /** 'YYYY-MM', oldest first, ending with the current KST month. */
  months: z.array(z.string()),
  monthly: z.record(z.string(), monthSpend),
  /** The same map under the name other clients read. */
  monthlyMap: z.record(z.string(), monthSpend),
  selectedMonth: z.string(),
});
export type SpendingAnalysis = z.infer<typeof spendingAnalysis>;

/* POST /api/dash/advice (report.md#D4) */

/** An in-app link the web shows as a button. */
export const adviceRef = z.object({ label: z.string(), path: z.string().startsWith('/') });
export type AdviceRef = z.infer<typeof adviceRef>;

export const advice = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  level: z.enum(ADVICE_LEVELS).default('LOW'),
  tags: z.array(z.string()),
  refs: z.array(adviceRef),
});
export type Advice = z.infer<typeof advice>;

export const adviceReport = z.object({
  advices: z.array(advice),
  meta: z.object({
    /** ISO instant in KST. */
    generatedAt: z.string(),
    month: z.string(),
    /** 'rules': the deterministic engine wrote every text. */
    source: z.literal('rules'),
    count: z.number().int(),
  }),
});
export type AdviceReport = z.infer<typeof adviceReport>;

/** The report's calls (docs/rules/report.md); the customer always comes from the token. */
export const reportEndpoints = {
  score: defineEndpoint({
    method: 'POST',
    path: '/api/dash/saymyname',
    response: enveloped(scoreReport),
    access: 'customer',
    summary: '오굿 점수와 그 이유',
    tags: ['report'],
  }),
  analyze: defineEndpoint({
    method: 'POST',
    path: '/api/dash/analyze',
    body: analyzeRequest,
    response: enveloped(spendingAnalysis),
    access: 'customer',
    summary: '월별·카테고리별 소비 분석',
    tags: ['report'],
  }),
  advice: defineEndpoint({
    method: 'POST',
    path: '/api/dash/advice',
    response: enveloped(adviceReport),
    access: 'customer',
    summary: '내 데이터로 만든 맞춤 조언',
    tags: ['report'],
  }),
};
