import type { DomainEvent, GRADE_CHANGE_REASONS } from '@ohgood/contract/domain-events';
import { clampGradePoint, GRADE_POINTS, gradeOf } from '@ohgood/contract/grades';
import { kstDate } from '@ohgood/contract/kst';
import { eq } from 'drizzle-orm';
import { customers } from '../../db/schema';
import type { Tx } from '../../db/tx';
import { recordEvent } from '../../events/record-event';
import { dueDate } from './statements';

/*
 * The one server module that changes grade points (earning, revoking, penalties), from the contract's
 * `GRADE_POINTS` and always through its one clamp, `clampGradePoint`.
 */

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
    gradePoint: clampGradePoint(account.gradePoint + Math.floor(carried / GRADE_POINTS.krwPerPoint)),
    repaidRemainder: carried % GRADE_POINTS.krwPerPoint,
  };
}

/**
 * The exact inverse of `earnGradePoints` for a refunded line that had been repaid on time (docs/rules/payments.md#P15):
 * the KRW leave the accumulator, borrowing whole grade points as needed, so buy → repay → refund leaves the
 * grade where it was and a colluding merchant cannot raise a limit for free. Never below 0.
 */
export function revokeGradePoints(account: GradeAccount, refundedKrw: number): GradeAccount {
  const short = refundedKrw - account.repaidRemainder;
  const borrowed = short > 0 ? Math.ceil(short / GRADE_POINTS.krwPerPoint) : 0;
  return {
    gradePoint: clampGradePoint(account.gradePoint - borrowed),
    repaidRemainder: account.repaidRemainder + borrowed * GRADE_POINTS.krwPerPoint - refundedKrw,
  };
}

/** The grade points left after a penalty (an automatic extension or an overdue statement); never below the floor. */
export function penalizedGradePoint(gradePoint: number, penalty: number): number {
  return clampGradePoint(gradePoint - penalty);
}

/** `grade.changed` for a move of the customer's grade points, or null when they did not move. */
export function gradeChange(
  customerId: number,
  before: number,
  after: number,
  reason: (typeof GRADE_CHANGE_REASONS)[number],
): DomainEvent | null {
  if (after === before) return null;
  const state = (gradePoint: number) => ({ gradePoint, grade: gradeOf(gradePoint).name });
  return { type: 'grade.changed', customerId, reason, from: state(before), to: state(after) };
}

/**
 * Writes a customer's new grade account (the caller holds the customer's lock) and, when the grade points
 * moved, records `grade.changed` in the same transaction.
 */
export async function saveGrade(
  tx: Tx,
  customerId: number,
  before: number,
  after: Partial<GradeAccount> & Pick<GradeAccount, 'gradePoint'>,
  reason: (typeof GRADE_CHANGE_REASONS)[number],
  at: Date,
): Promise<void> {
  await tx.update(customers).set(after).where(eq(customers.id, customerId));
  const changed = gradeChange(customerId, before, after.gradePoint, reason);
  if (changed) await recordEvent(tx, changed, at);
}
