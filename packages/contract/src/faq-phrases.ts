import { AUTOPAY_RULES } from './autopay';
import { BILL_RULES } from './bill-rules';
import { GRADE_POINTS, GRADES, type Grade } from './grades';
import { LIMITS } from './limits';
import { NOTIFICATION_RULES } from './notifications';
import { won } from './number-format';
import { SCORE_BAND_MIN, SCORE_MAX, SCORE_MIN, SCORE_MONTHS } from './report-rules';
import { watchPoints } from './shorts-rules';

/*
 * The rule numbers both FAQs quote (my page's and the chatbot's), gathered from where each rule is defined,
 * and the phrases built from them. Each FAQ is a function of these numbers, so an answer changes with its
 * rule, and a test can hand in other numbers to see that it does.
 */

type Numbers<T> = { readonly [K in keyof T]: number };

export interface RuleNumbers {
  grades: readonly Pick<Grade, 'label' | 'min' | 'max' | 'monthlyLimit' | 'pointPercent'>[];
  gradePoints: Numbers<typeof GRADE_POINTS>;
  bill: Numbers<typeof BILL_RULES>;
  score: { min: number; max: number; months: number; topBand: { band: string; min: number } };
  points: { rouletteValues: readonly number[]; dailyWatchLimit: number; watchPerMinute: number };
  /** Autopay's debit time (KST hour) and the reminder before the due date (days). */
  autopay: { debitHour: number; reminderDays: number };
}

export const RULE_NUMBERS: RuleNumbers = {
  grades: GRADES,
  gradePoints: GRADE_POINTS,
  bill: BILL_RULES,
  score: { min: SCORE_MIN, max: SCORE_MAX, months: SCORE_MONTHS, topBand: { band: 'A', min: SCORE_BAND_MIN.A } },
  points: {
    rouletteValues: LIMITS.rouletteValues,
    dailyWatchLimit: LIMITS.dailyWatchPointLimit,
    watchPerMinute: watchPoints(60),
  },
  autopay: { debitHour: AUTOPAY_RULES.debitMinute / 60, reminderDays: NOTIFICATION_RULES.reminderDaysBefore },
};

/** 100,000 → '10만 원' (limits read better in 만 units). */
export const manWon = (krw: number) => (krw % 10_000 === 0 ? `${krw / 10_000}만 원` : won(krw));

/** Phrases both FAQs say the same way. */
export function rulePhrases(rules: RuleNumbers) {
  const limits = rules.grades.map((g) => g.monthlyLimit);
  const rates = rules.grades.map((g) => g.pointPercent);
  const prizes = rules.points.rouletteValues;
  return {
    /** '월 10만~30만 원' */
    limitRange: `월 ${manWon(Math.min(...limits)).replace(' 원', '')}~${manWon(Math.max(...limits))}`,
    /** '0.2~2%' */
    rateRange: `${Math.min(...rates)}~${Math.max(...rates)}%`,
    /** '5~50P' */
    prizeRange: `${Math.min(...prizes)}~${Math.max(...prizes)}P`,
    /** '300~1000점' */
    scoreRange: `${rules.score.min}~${rules.score.max}점`,
    /** '오전 10시' */
    debitTime: `${rules.autopay.debitHour < 12 ? '오전' : '오후'} ${rules.autopay.debitHour % 12 || 12}시`,
  };
}
