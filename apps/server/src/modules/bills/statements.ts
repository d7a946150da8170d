import { BILL_RULES } from '@ohgood/contract/bill-rules';
import { gradeOf } from '@ohgood/contract/grades';
import { addMonths, dateInMonth, daysInMonth } from '@ohgood/contract/kst';
import { and, eq, isNotNull, type SQL, sql } from 'drizzle-orm';
import { customers, purchases, statements } from '../../db/schema';
import type { Executor, Tx } from '../../db/tx';

/**
 * The statement row of (customer, month), created on first use. A new line on a statement that had been
 * repaid in full reopens it (clears paidAt), so "PAID" always means "no unpaid line".
 */
export async function ensureStatement(tx: Tx, customerId: number, month: string): Promise<void> {
  await tx
    .insert(statements)
    .values({ customerId, month })
    .onConflictDoUpdate({
      target: [statements.customerId, statements.month],
      set: { paidAt: null },
      setWhere: isNotNull(statements.paidAt),
    });
}

/**
 * Due date of a statement of `month` (docs/rules/bills-and-grades.md#B1): the 15th of M+1, or its last day when
 * extended.
 */
export function dueDate(month: string, extended: boolean): string {
  const next = addMonths(month, 1);
  const day = extended ? daysInMonth(next) : BILL_RULES.dueDay;
  return dateInMonth(next, day);
}

/**
 * What a customer still owes on `month`'s unpaid, non-refunded purchases, as a SQL expression, so a caller
 * can fold it into a read it makes anyway. Payments' batched reads and write (migrations 0012, 0013) count it
 * the same way, in SQL.
 */
export function owedSql(customerId: number, month: string): SQL<string> {
  return sql<string>`(select coalesce(sum(${purchases.price}), 0) from ${purchases}
    where ${purchases.customerId} = ${customerId} and ${purchases.statementMonth} = ${month}
      and ${purchases.status} = 'UNPAID')`;
}

/** The grade's monthly limit minus what is owed (docs/rules/bills-and-grades.md#B3), never below zero. */
export function limitLeft(gradePoint: number, owed: number | string): number {
  return Math.max(0, gradeOf(gradePoint).monthlyLimit - Number(owed));
}

/**
 * Available limit (docs/rules/bills-and-grades.md#B3): the grade's monthly limit minus what is still owed on this
 * month's unpaid, non-refunded purchases. Derived every time, never stored, so it cannot drift.
 */
export async function availableLimit(
  db: Executor,
  customerId: number,
  currentMonth: string,
  /** The customer's grade points when the caller already holds the locked row. */
  knownGradePoint?: number,
): Promise<number> {
  const [row] = await db
    .select({ gradePoint: customers.gradePoint, owed: owedSql(customerId, currentMonth) })
    .from(customers)
    .where(eq(customers.id, customerId));
  return limitLeft(knownGradePoint ?? row?.gradePoint ?? 0, row?.owed ?? 0);
}

/**
 * Suspension (docs/rules/bills-and-grades.md#B10, #B11) is true exactly while an OVERDUE statement still has an unpaid
 * line, unless an operator lifted it (until that debt is settled, or a statement newly falls overdue) — and
 * always while an operator holds it (docs/rules/operations.md#O5). Call it in the transaction of anything that
 * changes lines or overdue flags (repayments, refunds, the overdue job, the console).
 */
export async function recomputeSuspension(
  tx: Tx,
  customerId: number,
  options: { newlyOverdue?: boolean } = {},
): Promise<boolean> {
  const rows = await tx
    .select({ one: sql<number>`1` })
    .from(purchases)
    .innerJoin(
      statements,
      and(eq(statements.customerId, purchases.customerId), eq(statements.month, purchases.statementMonth)),
    )
    .where(and(eq(purchases.customerId, customerId), eq(purchases.status, 'UNPAID'), isNotNull(statements.overdueAt)))
    .limit(1);
  const overdue = rows.length > 0;
  // A lift lasts while the overdue debt it forgave is open, and a new overdue statement ends it.
  const lifted = overdue && !options.newlyOverdue ? customers.overdueLifted : sql`false`;
  const [row] = await tx
    .update(customers)
    .set({
      overdueLifted: sql`${lifted}`,
      suspended: sql`${customers.staffSuspended} or (${overdue} and not ${lifted})`,
    })
    .where(eq(customers.id, customerId))
    .returning({ suspended: customers.suspended });
  return row?.suspended ?? overdue;
}
