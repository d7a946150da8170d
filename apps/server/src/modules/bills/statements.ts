import { BILL_RULES } from '@ohgood/contract/bill-rules';
import { monthlyLimitOf } from '@ohgood/contract/grades';
import { addMonths, dateInMonth, daysInMonth } from '@ohgood/contract/kst';
import { Column, eq, getTableName, isNotNull, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { customers, purchases, statements } from '../../db/schema';
import { type Executor, rowsOf, type Tx } from '../../db/tx';
import { recordEvent } from '../../events/record-event';

/**
 * Opens the statement rows of (customer, month) pairs, or reopens them (docs/rules/bills-and-grades.md#B2): a new
 * line on a statement that had been repaid in full clears its paidAt, so "PAID" always means "no unpaid line".
 * One statement for any number of pairs; the payment's write folds it into its own.
 */
export function openStatementsQuery(tx: Tx, pairs: readonly { customerId: number; month: string }[]) {
  const unique = new Map(pairs.map((pair) => [`${pair.customerId}:${pair.month}`, pair]));
  return tx
    .insert(statements)
    .values([...unique.values()].map(({ customerId, month }) => ({ customerId, month })))
    .onConflictDoUpdate({
      target: [statements.customerId, statements.month],
      set: { paidAt: null },
      setWhere: isNotNull(statements.paidAt),
    });
}

/** The statement row of (customer, month), opened or reopened (`openStatementsQuery` for one pair). */
export async function ensureStatement(tx: Tx, customerId: number, month: string): Promise<void> {
  await openStatementsQuery(tx, [{ customerId, month }]);
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
 * can fold it into a read it makes anyway. Given values (or a statement's placeholders) it counts one (customer,
 * month); given columns it counts each row's own (the overdue job's statements), the same expression either way.
 */
export function owedSql(customerId: number | Column | Placeholder, month: string | Column | Placeholder): SQL<string> {
  return sql<string>`(select coalesce(sum(${purchases.price}), 0) from ${purchases}
    where ${purchases.customerId} = ${outer(customerId)} and ${purchases.statementMonth} = ${outer(month)}
      and ${purchases.status} = 'UNPAID')`;
}

/**
 * A value, or a column of the enclosing query named with its table: drizzle may write a column bare (in an
 * UPDATE's RETURNING, say), and inside the subquery a bare name would mean the purchase's own column.
 */
function outer<V extends number | string | Placeholder>(value: V | Column): SQL | V {
  if (!(value instanceof Column)) return value;
  return sql`${sql.identifier(getTableName(value.table))}.${sql.identifier(value.name)}`;
}

/** What a customer's limit is based on: their grade points and risk's own limit, if any. */
export interface LimitBasis {
  gradePoint: number;
  creditLimit: number | null;
}

/**
 * The monthly limit in force (the grade's, or risk's lower one: docs/rules/operations.md#O8) minus what is
 * owed (docs/rules/bills-and-grades.md#B3), never below zero.
 */
export function limitLeft(basis: LimitBasis, owed: number | string): number {
  return Math.max(0, monthlyLimitOf(basis) - Number(owed));
}

/**
 * Available limit (docs/rules/bills-and-grades.md#B3): the monthly limit in force (the grade's, or risk's lower
 * one) minus what is still owed on this month's unpaid, non-refunded purchases. Derived every time, never stored, so it cannot drift.
 */
export async function availableLimit(db: Executor, customerId: number, currentMonth: string): Promise<number> {
  const [row] = await db
    .select({
      gradePoint: customers.gradePoint,
      creditLimit: customers.creditLimit,
      owed: owedSql(customerId, currentMonth),
    })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row ? limitLeft(row, row.owed) : 0;
}

/**
 * Suspension (docs/rules/bills-and-grades.md#B10, #B11) is true exactly while an OVERDUE statement still has an unpaid
 * line, unless an operator lifted it (until that debt is settled, or a statement newly falls overdue) — and
 * always while an operator holds it (docs/rules/operations.md#O5). Call it, holding the customer's row, in the transaction of anything that
 * changes lines or overdue flags (repayments, refunds, the overdue job, the console). A change of the flag
 * records `account.suspended` or `account.suspension_lifted`.
 */
export async function recomputeSuspension(
  tx: Tx,
  customerId: number,
  at: Date,
  /** `byStaff`: an operator's suspend or lift called this, so a lift is theirs, not a repayment's. */
  options: { newlyOverdue?: boolean; byStaff?: boolean } = {},
): Promise<boolean> {
  // One statement: whether an overdue statement still has an unpaid line, the flags before, the flags written.
  // Every caller holds the customer's row (a money path's lock, the console's or the overdue job's update), so
  // nothing read here moves under it.
  const overdue = sql`exists (select 1 from ${purchases} p join ${statements} s
    on s.customer_id = p.customer_id and s.month = p.statement_month
    where p.customer_id = ${customerId} and p.status = 'UNPAID' and s.overdue_at is not null)`;
  // A lift lasts while the overdue debt it forgave is open, and a new overdue statement ends it.
  const lifted = options.newlyOverdue ? sql`false` : sql`(o.overdue and c.overdue_lifted)`;
  const [row] = await rowsOf<{
    overdue: boolean;
    was_suspended: boolean | null;
    suspended: boolean | null;
    staff_suspended: boolean | null;
    was_staff_suspended: boolean | null;
  }>(
    tx,
    sql`with o as (select ${overdue} as overdue),
      before as (select suspended, staff_suspended from ${customers} where id = ${customerId}),
      written as (
        update ${customers} c set overdue_lifted = ${lifted},
          suspended = c.staff_suspended or (o.overdue and not ${lifted})
        from o where c.id = ${customerId}
        returning c.suspended, c.staff_suspended)
      select o.overdue, before.suspended as was_suspended, before.staff_suspended as was_staff_suspended,
        written.suspended, written.staff_suspended
      from o left join before on true left join written on true`,
  );
  if (!row) throw new Error('suspension recompute answered no row');
  const suspended = row.suspended ?? row.overdue;
  if (row.was_suspended !== null && row.suspended !== null && row.was_suspended !== suspended) {
    // Told for what it is: an operator's act is never worded as an overdue bill, nor a repayment as a lift.
    const byStaff = options.byStaff === true || row.was_staff_suspended !== row.staff_suspended;
    await recordEvent(
      tx,
      suspended
        ? { type: 'account.suspended', customerId, reason: row.staff_suspended ? 'STAFF' : 'OVERDUE' }
        : { type: 'account.suspension_lifted', customerId, reason: byStaff ? 'STAFF' : 'REPAID' },
      at,
    );
  }
  return suspended;
}
