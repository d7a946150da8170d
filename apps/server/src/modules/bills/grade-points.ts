import { BILL_RULES } from '@ohgood/contract/bill-rules';
import { GRADE_POINT_MAX } from '@ohgood/contract/grades';
import { kstDate } from '@ohgood/contract/kst';
import { dueDate } from './statements';

/** KRW repaid on time per grade point (docs/rules/bills-and-grades.md#G2). */
const KRW_PER_GRADE_POINT = BILL_RULES.krwPerGradePoint;

export interface GradeAccount {
  gradePoint: number;
  /** KRW repaid on time not yet worth a whole grade point (the running accumulator of G2). */
  repaidRemainder: number;
}

/** Repaid on or before the (possibly extended) due date, and never after the statement went overdue. */
export function repaidOnTime(
  statement: { month: string; extension: string | null; overdueAt: Date | null },
  paidAt: Date,
): boolean {
  const beforeOverdue = !statement.overdueAt || paidAt.getTime() < statement.overdueAt.getTime();
  return beforeOverdue && kstDate(paidAt) <= dueDate(statement.month, statement.extension !== null);
}

/** +1 grade point per full 10,000 KRW repaid on time, the remainder carried (docs/rules/bills-and-grades.md#G2). */
export function earnGradePoints(account: GradeAccount, onTimeKrw: number): GradeAccount {
  const carried = account.repaidRemainder + onTimeKrw;
  return {
    gradePoint: Math.min(GRADE_POINT_MAX, account.gradePoint + Math.floor(carried / KRW_PER_GRADE_POINT)),
    repaidRemainder: carried % KRW_PER_GRADE_POINT,
  };
}

/**
 * The exact inverse of `earnGradePoints` for a refunded line that had been repaid on time (docs/rules/payments.md#P15):
 * the KRW leave the accumulator, borrowing whole grade points as needed, so buy → repay → refund leaves the
 * grade where it was and a colluding merchant cannot raise a limit for free. Never below 0.
 */
export function revokeGradePoints(account: GradeAccount, refundedKrw: number): GradeAccount {
  const short = refundedKrw - account.repaidRemainder;
  const borrowed = short > 0 ? Math.ceil(short / KRW_PER_GRADE_POINT) : 0;
  return {
    gradePoint: Math.max(0, account.gradePoint - borrowed),
    repaidRemainder: account.repaidRemainder + borrowed * KRW_PER_GRADE_POINT - refundedKrw,
  };
}
