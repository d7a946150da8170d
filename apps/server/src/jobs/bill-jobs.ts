import { BILL_RULES } from '@ohgood/contract/bill-rules';
import { GRADE_POINTS } from '@ohgood/contract/grades';
import { addMonths } from '@ohgood/contract/kst';
import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { lockCustomers } from '../db/locks';
import { customers, purchases, statements } from '../db/schema';
import type { Tx } from '../db/tx';
import { recordEvents } from '../events/record-event';
import { penalizedGradePoint, saveGrade } from '../modules/bills/grade-points';
import { dueDate, owedSql, recomputeSuspension } from '../modules/bills/statements';

const hasUnpaidLine = sql`exists (select 1 from ${purchases} where ${purchases.customerId} = ${statements.customerId}
  and ${purchases.statementMonth} = ${statements.month} and ${purchases.status} = 'UNPAID')`;

/**
 * What a penalty will actually take from each of `customerIds` (locked by the caller), one entry per penalty in
 * their order: fewer points than the penalty, or none, from a customer who has fewer left, and a customer named
 * twice loses it twice. The events, and so the notices, say these figures.
 */
async function pointsTaken(tx: Tx, customerIds: number[], penalty: number): Promise<number[]> {
  if (customerIds.length === 0) return [];
  const rows = await tx
    .select({ id: customers.id, gradePoint: customers.gradePoint })
    .from(customers)
    .where(inArray(customers.id, [...new Set(customerIds)]));
  const points = new Map(rows.map((row) => [row.id, row.gradePoint]));
  return customerIds.map((id) => {
    const before = points.get(id) ?? 0;
    const after = penalizedGradePoint(before, penalty);
    points.set(id, after);
    return before - after;
  });
}

/** Takes a penalty off a customer already locked by the caller (the lock order of db/tx.ts). */
async function penalize(
  tx: Tx,
  customerId: number,
  penalty: number,
  reason: 'AUTO_EXTENSION' | 'OVERDUE',
  at: Date,
): Promise<void> {
  const [customer] = await tx
    .select({ gradePoint: customers.gradePoint })
    .from(customers)
    .where(eq(customers.id, customerId));
  if (!customer) return;
  const gradePoint = penalizedGradePoint(customer.gradePoint, penalty);
  await saveGrade(tx, customerId, customer.gradePoint, { gradePoint }, reason, at);
}

/**
 * 16th (docs/rules/bills-and-grades.md#B9): every statement of the previous month that still has unpaid lines and was
 * not extended is extended automatically, and its customer loses 5 grade points. `today` is the KST run date.
 */
export async function autoExtend(tx: Tx, today: string, at: Date): Promise<{ extended: number }> {
  if (Number(today.slice(8, 10)) < BILL_RULES.autoExtensionDay)
    throw new Error(`auto-extension runs on or after the 16th, not ${today}`);
  const month = addMonths(today.slice(0, 7), -1);
  const due = and(
    eq(statements.month, month),
    isNull(statements.extension),
    isNull(statements.overdueAt),
    hasUnpaidLine,
  );
  // Lock order (db/tx.ts): the affected customers by id, then their statements.
  await lockCustomers(
    tx,
    (await tx.select({ id: statements.customerId }).from(statements).where(due)).map((r) => r.id),
  );
  const rows = await tx
    .update(statements)
    .set({ extension: 'AUTO', extendedAt: at })
    .where(due)
    .returning({ customerId: statements.customerId });
  const penalty = GRADE_POINTS.autoExtensionPenalty;
  const taken = await pointsTaken(
    tx,
    rows.map((row) => row.customerId),
    penalty,
  );
  await recordEvents(
    tx,
    rows.map(({ customerId }, i) => ({
      type: 'statement.extended' as const,
      customerId,
      month,
      by: 'JOB' as const,
      dueDate: dueDate(month, true),
      penalty: taken[i] ?? 0,
    })),
    at,
  );
  for (const row of rows) await penalize(tx, row.customerId, penalty, 'AUTO_EXTENSION', at);
  return { extended: rows.length };
}

/**
 * 1st (docs/rules/bills-and-grades.md#B10): every statement whose (possibly extended) due date is before `today` and
 * that still has unpaid lines becomes OVERDUE; its customer loses 20 grade points and is suspended.
 */
export async function markOverdue(tx: Tx, today: string, at: Date): Promise<{ overdue: number; suspended: number }> {
  // A statement of month M is due in M+1 at the latest, so only months up to two before today's can be late.
  const open = and(
    isNull(statements.overdueAt),
    lte(statements.month, addMonths(today.slice(0, 7), -1)),
    hasUnpaidLine,
  );
  // Lock order (db/tx.ts): the affected customers by id, then their statements.
  await lockCustomers(
    tx,
    (await tx.select({ id: statements.customerId }).from(statements).where(open)).map((r) => r.id),
  );
  const candidates = await tx
    .select({
      id: statements.id,
      customerId: statements.customerId,
      month: statements.month,
      extension: statements.extension,
    })
    .from(statements)
    .where(open)
    .orderBy(asc(statements.id))
    .for('update');
  const late = candidates.filter((row) => dueDate(row.month, row.extension !== null) < today);
  if (late.length === 0) return { overdue: 0, suspended: 0 };
  const marked = await tx
    .update(statements)
    .set({ overdueAt: at })
    .where(
      and(
        inArray(
          statements.id,
          late.map((row) => row.id),
        ),
        isNull(statements.overdueAt),
      ),
    )
    .returning({
      customerId: statements.customerId,
      month: statements.month,
      amount: owedSql(statements.customerId, statements.month),
    });
  const penalty = GRADE_POINTS.overduePenalty;
  const taken = await pointsTaken(
    tx,
    marked.map((row) => row.customerId),
    penalty,
  );
  await recordEvents(
    tx,
    marked.map(({ customerId, month, amount }, i) => ({
      type: 'statement.overdue' as const,
      customerId,
      month,
      amount: Number(amount),
      penalty: taken[i] ?? 0,
    })),
    at,
  );
  for (const row of marked) await penalize(tx, row.customerId, penalty, 'OVERDUE', at);
  const affected = [...new Set(marked.map((row) => row.customerId))];
  for (const customerId of affected) await recomputeSuspension(tx, customerId, at, { newlyOverdue: true });
  return { overdue: marked.length, suspended: affected.length };
}

/**
 * 1st (docs/rules/bills-and-grades.md#B1): the previous month has closed, and each of its statements with unpaid
 * lines is issued: `statement.issued` with what it owes and when it is due. It only records events; the
 * statement's state stays derived from its lines.
 */
export async function issueStatements(tx: Tx, today: string, at: Date): Promise<{ issued: number }> {
  const month = addMonths(today.slice(0, 7), -1);
  const closed = await tx
    .select({
      customerId: purchases.customerId,
      amount: sql<string>`sum(${purchases.price})`,
      lines: sql<number>`count(*)::int`,
    })
    .from(purchases)
    .where(and(eq(purchases.statementMonth, month), eq(purchases.status, 'UNPAID')))
    .groupBy(purchases.customerId)
    .orderBy(asc(purchases.customerId));
  const due = dueDate(month, false);
  await recordEvents(
    tx,
    closed.map(({ customerId, amount, lines }) => ({
      type: 'statement.issued' as const,
      customerId,
      month,
      amount: Number(amount),
      lines,
      dueDate: due,
    })),
    at,
  );
  return { issued: closed.length };
}
