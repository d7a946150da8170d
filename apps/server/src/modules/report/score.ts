import { clampGradePoint, GRADE_POINTS, gradeOf } from '@ohgood/contract/grades';
import { won } from '@ohgood/contract/number-format';
import type { ScoreFactor } from '@ohgood/contract/report';
import {
  AUTO_EXTENSIONS_FULL_RISK,
  MANUAL_EXTENSION_RISK,
  PURCHASES_NO_RISK,
  SCORE_BAND_MIN,
  SCORE_FACTOR_KEYS,
  SCORE_FACTOR_TEXT,
  SCORE_MAX,
  SCORE_MIN,
  SCORE_WEIGHTS,
  type ScoreBand,
  type ScoreFactorKey,
} from '@ohgood/contract/report-rules';

/** What the score is computed from (report.md#D1); the service gathers it from the customer's records. */
export interface ScoreInputs {
  /** The statement due this month (last month's) was extended automatically. */
  autoExtendedNow: boolean;
  /** … or manually. */
  extendedNow: boolean;
  /** Auto-extended statements in the last 12 months. */
  autoExtensions12m: number;
  suspended: boolean;
  gradePoint: number;
  /** This month's billed spend (KRW); 0 means "use the 12-month amount / 12". */
  spendThisMonth: number;
  /** Non-refunded purchases of the current KST month and the 11 before. */
  purchases12m: number;
  /** Their billed amount (KRW). */
  amount12m: number;
}

export interface ScoreResult {
  score: number;
  band: ScoreBand;
  factors: ScoreFactor[];
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
/** Averages can be fractional; the factor lines show whole won. */
const wholeWon = (n: number) => won(Math.round(n));

/** Risk of the limit-use ratio u: none up to 30 %, 0.7 at 80 %, full from 100 %. */
export function limitUseRisk(u: number): number {
  if (u <= 0.3) return 0;
  if (u <= 0.8) return (0.7 * (u - 0.3)) / 0.5;
  if (u < 1) return 0.7 + (0.3 * (u - 0.8)) / 0.2;
  return 1;
}

/** Risk of the 12-month amount: thin files and very heavy use are both riskier than steady use. */
export function amountRisk(s: number): number {
  if (s <= 300_000) return 0.8;
  if (s <= 3_000_000) return 0.8 - (0.6 * (s - 300_000)) / 2_700_000;
  if (s <= 20_000_000) return 0.2;
  return Math.min(0.2 + (0.6 * (s - 20_000_000)) / 20_000_000, 0.8);
}

export function bandOf(score: number): ScoreBand {
  for (const band of ['A', 'B', 'C', 'D'] as const) if (score >= SCORE_BAND_MIN[band]) return band;
  return 'E';
}

/** The spend used for limit use: this month's, or the 12-month monthly average when nothing yet. */
function effectiveSpend(inputs: ScoreInputs): number {
  return inputs.spendThisMonth > 0 ? inputs.spendThisMonth : inputs.amount12m / 12;
}

function risks(inputs: ScoreInputs): Record<ScoreFactorKey, number> {
  const limit = gradeOf(inputs.gradePoint).monthlyLimit;
  return {
    autoExtendedNow: inputs.autoExtendedNow ? 1 : 0,
    extendedNow: inputs.extendedNow ? MANUAL_EXTENSION_RISK : 0,
    autoExtensions12m: Math.min(Math.max(0, inputs.autoExtensions12m) / AUTO_EXTENSIONS_FULL_RISK, 1),
    suspended: inputs.suspended ? 1 : 0,
    gradePoint: 1 - clampGradePoint(inputs.gradePoint) / GRADE_POINTS.max,
    limitUse: limitUseRisk(effectiveSpend(inputs) / limit),
    purchases12m: 1 - Math.min(Math.max(0, inputs.purchases12m) / PURCHASES_NO_RISK, 1),
    amount12m: amountRisk(inputs.amount12m),
  };
}

function details(inputs: ScoreInputs): Record<ScoreFactorKey, string> {
  const limit = gradeOf(inputs.gradePoint).monthlyLimit;
  const spend = effectiveSpend(inputs);
  return {
    autoExtendedNow: inputs.autoExtendedNow ? '이번 달 납부할 청구서가 자동 연장됐어요' : '자동 연장 없음',
    extendedNow: inputs.extendedNow ? '이번 달 납부할 청구서를 연장했어요' : '연장 신청 없음',
    autoExtensions12m: `자동 연장 ${inputs.autoExtensions12m}회`,
    suspended: inputs.suspended ? '연체로 결제가 정지된 상태예요' : '정상 이용 중',
    gradePoint: `등급 점수 ${inputs.gradePoint} / ${GRADE_POINTS.max}`,
    limitUse: `${inputs.spendThisMonth > 0 ? '이번 달' : '월평균'} ${wholeWon(spend)} / 한도 ${wholeWon(limit)} (${Math.round(
      (spend / limit) * 100,
    )}%)`,
    purchases12m: `이용 ${inputs.purchases12m}회`,
    amount12m: `이용 금액 ${wholeWon(inputs.amount12m)}`,
  };
}

/**
 * The OhGood score (report.md#D1): round(300 + 700 × (1 − risk)), risk = clamp(Σ wᵢ·rᵢ, 0, 1). Each factor
 * reports the score points it costs (700·wᵢ·rᵢ), largest first, so the report can say why.
 */
export function computeScore(inputs: ScoreInputs): ScoreResult {
  const r = risks(inputs);
  const risk = clamp01(SCORE_FACTOR_KEYS.reduce((sum, key) => sum + SCORE_WEIGHTS[key] * r[key], 0));
  const score = Math.round(SCORE_MIN + (SCORE_MAX - SCORE_MIN) * (1 - risk));
  const detail = details(inputs);
  const factors = SCORE_FACTOR_KEYS.map((key) => ({
    key,
    label: SCORE_FACTOR_TEXT[key].label,
    contribution: Math.round((SCORE_MAX - SCORE_MIN) * SCORE_WEIGHTS[key] * r[key] * 10) / 10,
    detail: detail[key],
    tip: SCORE_FACTOR_TEXT[key].tip,
  })).sort((a, b) => b.contribution - a.contribution);
  return { score, band: bandOf(score), factors };
}
