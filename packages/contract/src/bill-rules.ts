/*
 * Bill and grade-point rules of docs/rules/bills-and-grades.md as numbers, zod-free. The server's jobs and services use
 * them, and the chatbot's FAQ answers are built from them, so an answer changes when a rule does.
 */
export const BILL_RULES = {
  /** A statement of month M is due on this day of M+1 (end of day KST); extended: the last day of M+1. */
  dueDay: 15,
  /** Unpaid, unextended statements of the previous month are auto-extended on this day (00:05 KST). */
  autoExtensionDay: 16,
  /** Statements past their (extended) due date become OVERDUE on this day of the month (00:05 KST). */
  overdueDay: 1,
  /** gradePoint +1 for every full amount repaid on time (the remainder carries over). */
  krwPerGradePoint: 10_000,
  /** gradePoint penalties. */
  autoExtensionPenalty: 5,
  overduePenalty: 20,
  /** Product policy: no interest and no late fees. */
  lateFeeKrw: 0,
} as const;

/** The OhGood score scale and its bands (docs/rules/report.md#D1), highest band first. */
export const SCORE_SCALE = {
  min: 300,
  max: 1000,
  bands: [
    { band: 'A', min: 750 },
    { band: 'B', min: 650 },
    { band: 'C', min: 550 },
    { band: 'D', min: 450 },
    { band: 'E', min: 300 },
  ],
} as const;
