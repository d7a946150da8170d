/*
 * Bill rules (docs/rules/bills-and-grades.md) as numbers, zod-free; the grade-point economy is `GRADE_POINTS`
 * in grades.ts. The server's jobs and services use them, and both FAQs are built from them (faq-phrases.ts),
 * so an answer changes when a rule does.
 */
export const BILL_RULES = {
  /** A statement of month M is due on this day of M+1 (end of day KST); extended: the last day of M+1. */
  dueDay: 15,
  /** Unpaid, unextended statements of the previous month are auto-extended on this day (00:05 KST). */
  autoExtensionDay: 16,
  /** Statements past their (extended) due date become OVERDUE on this day of the month (00:05 KST). */
  overdueDay: 1,
  /** Product policy: no interest and no late fees. */
  lateFeeKrw: 0,
} as const;

/**
 * Why a customer's payments are suspended (docs/rules/bills-and-grades.md#B10, operations.md#O5): an overdue
 * bill, or an operator. Each has its own words everywhere it is told.
 */
export const SUSPENSION_REASONS = ['OVERDUE', 'STAFF'] as const;
export type SuspensionReason = (typeof SUSPENSION_REASONS)[number];

/** The reason of a customer's suspension, if suspended: an operator's wins over a bill's. */
export const suspensionReasonOf = (customer: { suspended: boolean; staffSuspended: boolean } | undefined) =>
  !customer?.suspended ? null : customer.staffSuspended ? ('STAFF' as const) : ('OVERDUE' as const);
