import { z } from 'zod';

/*
 * The daily reconciliation (docs/rules/bills-and-grades.md#B20): for one KST day, every movement the bank made
 * for us is matched with exactly one entry of our books, every book entry with its movement, and every
 * repayment with its lines. What does not match is a mismatch, listed with its kind and reference.
 */

/** Which way money moved at the bank: taken from a customer's account, or paid into it. */
export const MOVEMENT_DIRECTIONS = ['debit', 'credit'] as const;
export type MovementDirection = (typeof MOVEMENT_DIRECTIONS)[number];

export const MISMATCH_KINDS = [
  /** The bank moved money under a reference our books do not hold. */
  'missing_in_books',
  /** Our books hold a movement the bank never made. */
  'missing_at_bank',
  /** Both sides hold the reference with different amounts. */
  'amount_differs',
  /** The bank moved money twice under one reference, or our books hold one reference twice. */
  'duplicate',
  /** A repayment's amount is not the sum of the lines it paid. */
  'lines_do_not_sum',
] as const;
export type MismatchKind = (typeof MISMATCH_KINDS)[number];

/** How each mismatch kind is named in the console. */
export const MISMATCH_LABELS: Record<MismatchKind, string> = {
  missing_in_books: '장부에 없는 은행 거래',
  missing_at_bank: '은행에 없는 장부 거래',
  amount_differs: '금액 불일치',
  duplicate: '중복 거래',
  lines_do_not_sum: '상환액과 명세 합계 불일치',
};

export const reconciliationMismatch = z.object({
  kind: z.enum(MISMATCH_KINDS),
  /** The movement's kind by its reference ('autopay_debit', 'surplus_refund', …, 'unknown'), or 'repayment'. */
  movement: z.string(),
  direction: z.enum(MOVEMENT_DIRECTIONS).nullable(),
  /** The bank's reference (the idempotency key), or `repayment:<id>` for a repayment's lines. */
  reference: z.string(),
  bankAmount: z.number().int().nullable(),
  bookAmount: z.number().int().nullable(),
});
export type ReconciliationMismatch = z.infer<typeof reconciliationMismatch>;

const side = z.object({ count: z.number().int(), sum: z.number().int() });

/** One reconciled day: both sides' counts and sums per direction, and how many mismatches. */
export const reconciliationDay = z.object({
  day: z.string(),
  reconciledAt: z.string(),
  bank: z.object({ debits: side, credits: side }),
  books: z.object({ debits: side, credits: side }),
  mismatchCount: z.number().int(),
});
export type ReconciliationDay = z.infer<typeof reconciliationDay>;

export const reconciliationsResponse = z.object({ items: z.array(reconciliationDay) });
export const reconciliationDetail = reconciliationDay.extend({ mismatches: z.array(reconciliationMismatch) });
export type ReconciliationDetail = z.infer<typeof reconciliationDetail>;
export const reconciliationParams = z.object({ day: z.iso.date() });
