import { sql } from 'drizzle-orm';
import { customers, purchases, repayments, statements } from '../../db/schema';
import { rowsOf, type Tx } from '../../db/tx';

/*
 * The SQL of a repayment (an early payment or autopay's debit, bills-actions.ts#repayLines): after the customer's
 * lock, one statement that locks and reads the lines, and one that writes the repayment.
 */

type RepaymentValues = typeof repayments.$inferInsert;

/** A PostgreSQL array parameter of `values` (ids, months), for `= any(…)` and `<> all(…)`. */
const arrayOf = (values: readonly (number | string)[], type: 'int' | 'text') =>
  sql`${`{${values.join(',')}}`}::${sql.raw(type)}[]`;

/** A line an early payment or autopay selected, locked, with what its statement says of its due date. */
export interface LockedLine {
  id: number;
  customerId: number;
  status: string;
  collectingAttemptId: number | null;
  statementMonth: string;
  price: number;
  statement: { month: string; extension: string | null; overdueAt: Date | null };
}

/**
 * The lines `ids` locked in id order (whoever owns them), each with its statement's extension and overdue mark,
 * and whether `customerId` has an unpaid line outside `ids` in a month older than the newest of them (oldest
 * first, docs/rules/bills-and-grades.md#B7): one statement, sent after the customer's lock so it sees every
 * write committed under that lock.
 */
export async function lockLinesToRepay(tx: Tx, customerId: number, ids: number[]) {
  const chosen = arrayOf(ids, 'int');
  const rows = await rowsOf<{
    id: number;
    customer_id: number;
    status: string;
    collecting_attempt_id: number | null;
    statement_month: string;
    price: number;
    extension: string | null;
    overdue_at: Date | string | null;
    older_unpaid: boolean;
  }>(
    tx,
    sql`select p.id, p.customer_id, p.status, p.collecting_attempt_id, p.statement_month, p.price,
        s.extension, s.overdue_at,
        exists (select 1 from ${purchases} o where o.customer_id = ${customerId} and o.status = 'UNPAID'
          and o.id <> all(${chosen})
          and o.statement_month < (select max(n.statement_month) from ${purchases} n where n.id = any(${chosen})))
          as older_unpaid
      from ${purchases} p
      left join ${statements} s on s.customer_id = p.customer_id and s.month = p.statement_month
      where p.id = any(${chosen}) order by p.id for update of p`,
  );
  const lines: LockedLine[] = rows.map((row) => ({
    id: row.id,
    customerId: row.customer_id,
    status: row.status,
    collectingAttemptId: row.collecting_attempt_id,
    statementMonth: row.statement_month,
    price: row.price,
    statement: {
      month: row.statement_month,
      extension: row.extension,
      overdueAt: row.overdue_at === null ? null : new Date(row.overdue_at),
    },
  }));
  return { lines, olderUnpaid: rows.some((row) => row.older_unpaid) };
}

/**
 * A repayment's write in one statement: the repayment row, its lines `ids` marked PAID (those still unpaid),
 * each of `months`' statements marked paid once no line of it is left unpaid, and the customer's new grade
 * account. Answers the repayment's id and how many lines were still unpaid. One snapshot runs every part, so
 * "left unpaid" counts the lines outside `ids`: the caller holds the customer's and the lines' locks, and rolls
 * back unless every line was paid.
 */
export async function writeRepayment(
  tx: Tx,
  values: RepaymentValues & { createdAt: Date },
  months: string[],
  grade: { gradePoint: number; repaidRemainder: number },
): Promise<{ repaymentId: number; paid: number }> {
  const { customerId, purchaseIds: ids, createdAt: at } = values;
  const chosen = arrayOf(ids, 'int');
  const inserted = tx.insert(repayments).values(values).returning({ id: repayments.id });
  const [row] = await rowsOf<{ repayment_id: number; paid: number }>(
    tx,
    sql`with repayment as (${inserted.getSQL()}),
      paid as (update ${purchases} set status = 'PAID', paid_at = ${at}, repayment_id = (select id from repayment)
        where id = any(${chosen}) and status = 'UNPAID' returning id),
      settled as (update ${statements} s set paid_at = ${at}
        where s.customer_id = ${customerId} and s.month = any(${arrayOf(months, 'text')})
          and not exists (select 1 from ${purchases} p where p.customer_id = ${customerId}
            and p.statement_month = s.month and p.status = 'UNPAID' and p.id <> all(${chosen}))),
      graded as (update ${customers} set grade_point = ${grade.gradePoint}, repaid_remainder = ${grade.repaidRemainder}
        where id = ${customerId})
      select (select id from repayment) as repayment_id, (select count(*) from paid)::int as paid`,
  );
  if (!row) throw new Error('repayment write answered no row');
  return { repaymentId: row.repayment_id, paid: row.paid };
}
