/** Grades are a pure function of gradePoint (docs/rules/bills-and-grades.md#G1); never stored, so they never drift. */
export const GRADE_NAMES = ['bronze', 'silver', 'gold', 'platinum', 'diamond'] as const;
export type GradeName = (typeof GRADE_NAMES)[number];

export interface Grade {
  name: GradeName;
  label: string;
  min: number;
  max: number;
  monthlyLimit: number;
  /** Earn rate in percent of the amount paid after points. */
  pointPercent: number;
}

/**
 * The grade-point economy, defined once (docs/rules/bills-and-grades.md): the range a customer's points stay
 * in (the database's CHECK holds the same range, tested), what earns a point and what costs them. The
 * server's grade-points module computes with these, and both FAQs quote them.
 */
export const GRADE_POINTS = {
  min: 0,
  max: 150,
  /** +1 for every full amount repaid on time; the remainder carries over. */
  krwPerPoint: 10_000,
  /** Lost when an unpaid statement is extended automatically. */
  autoExtensionPenalty: 5,
  /** Lost when a statement becomes overdue. */
  overduePenalty: 20,
} as const;

export const GRADES: readonly Grade[] = [
  { name: 'bronze', label: '브론즈', min: GRADE_POINTS.min, max: 20, monthlyLimit: 100_000, pointPercent: 0.2 },
  { name: 'silver', label: '실버', min: 21, max: 40, monthlyLimit: 150_000, pointPercent: 0.6 },
  { name: 'gold', label: '골드', min: 41, max: 60, monthlyLimit: 200_000, pointPercent: 1.0 },
  { name: 'platinum', label: '플래티넘', min: 61, max: 90, monthlyLimit: 250_000, pointPercent: 1.5 },
  { name: 'diamond', label: '다이아', min: 91, max: GRADE_POINTS.max, monthlyLimit: 300_000, pointPercent: 2.0 },
];

/** The one clamp: grade points never leave GRADE_POINTS' range, whatever earned or cost them. */
export function clampGradePoint(gradePoint: number): number {
  return Math.min(GRADE_POINTS.max, Math.max(GRADE_POINTS.min, Math.trunc(gradePoint)));
}

export function gradeOf(gradePoint: number): Grade {
  const gp = clampGradePoint(gradePoint);
  const found = GRADES.find((g) => gp >= g.min && gp <= g.max);
  // The table covers 0..150 without gaps, and gp is clamped into that range.
  return found ?? (GRADES[0] as Grade);
}

export function gradeByName(name: GradeName): Grade {
  return GRADES.find((g) => g.name === name) ?? (GRADES[0] as Grade);
}

/** The grade after this one, or null at the top. */
export function nextGrade(gradePoint: number): Grade | null {
  const index = GRADES.indexOf(gradeOf(gradePoint));
  return GRADES[index + 1] ?? null;
}

/** "Points to next grade" = next grade's lower bound − gradePoint (bronze at 5 → 16); null at the top. */
export function pointsToNextGrade(gradePoint: number): number | null {
  const next = nextGrade(gradePoint);
  return next ? next.min - clampGradePoint(gradePoint) : null;
}

export const TOP_GRADE_MESSAGE = '최고 등급입니다!';

/**
 * A limit risk sets for one customer (docs/rules/operations.md#O8): whole 10,000 KRW, at least 10,000 and at
 * most the grade's monthly limit. It is a ceiling under the grade's: the limit in force is the lower of the
 * two, so a later grade down still lowers it and it never lifts a customer above the grade.
 */
export const CREDIT_LIMIT_RULES = { min: 10_000, step: 10_000 } as const;

/** The range risk may set a customer's limit in, for their grade points. */
export function creditLimitBounds(gradePoint: number): { min: number; max: number; step: number } {
  return { min: CREDIT_LIMIT_RULES.min, max: gradeOf(gradePoint).monthlyLimit, step: CREDIT_LIMIT_RULES.step };
}

/** The monthly limit in force: the grade's, or risk's lower one (null: none set). */
export function monthlyLimitOf(customer: { gradePoint: number; creditLimit: number | null }): number {
  const grade = gradeOf(customer.gradePoint).monthlyLimit;
  return customer.creditLimit === null ? grade : Math.min(customer.creditLimit, grade);
}
