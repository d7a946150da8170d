import type { WorkListFilter } from '@ohgood/contract/ops-desk';
import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { auditLog, autopayAttempts, customers, purchases, statements } from '../../db/schema';
import { type Executor, rowsOf, type Tx } from '../../db/tx';
import type { CustomerRow } from '../ops/customers-repository';
import { workListWhere } from '../ops/desk/customer-filter';
import { collectionFactsSql } from './filter';

/** The SQL of collections; the reads and actions beside it decide and shape. */

/** What a list row holds beside the customer, as the facts' SQL names them. */
export type CollectionFacts = {
  owed: number;
  oldest_month: string | null;
  overdue: boolean;
  failed_today: string | null;
};

/** The customers a filter names on the KST day `today`, with their facts, oldest id first. */
export async function matchingCustomers(
  db: Db,
  filter: WorkListFilter,
  today: string,
  limit: number,
): Promise<Array<{ customer: CustomerRow; facts: CollectionFacts }>> {
  const rows = await rowsOf<Record<string, unknown> & CollectionFacts>(
    db,
    sql`select c.*, ${collectionFactsSql(today)} from ${customers} c
      where ${workListWhere(sql`c`, filter, today)} order by c.id limit ${limit}`,
  );
  return rows.map((row) => ({ customer: customerOf(row), facts: row }));
}

/** How many customers a filter names on the KST day `today`. */
export async function countMatching(db: Db, filter: WorkListFilter, today: string): Promise<number> {
  const [count] = await rowsOf<{ n: number }>(
    db,
    sql`select count(*)::int as n from ${customers} c where ${workListWhere(sql`c`, filter, today)}`,
  );
  return Number(count?.n ?? 0);
}

/** Whether the customer is still in the filter (read under the lock the caller holds). */
export async function isMatching(tx: Tx, filter: WorkListFilter, today: string, customerId: number) {
  const [row] = await rowsOf<{ id: number }>(
    tx,
    sql`select c.id from ${customers} c where c.id = ${customerId} and ${workListWhere(sql`c`, filter, today)}`,
  );
  return row !== undefined;
}

/** Whether staff already sent the customer a payment reminder since `since` (the audit trail counts). */
export async function remindedSince(ex: Executor, customerId: number, since: Date): Promise<boolean> {
  const [sent] = await ex
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, 'customer.remind'),
        eq(auditLog.targetType, 'customer'),
        eq(auditLog.targetId, String(customerId)),
        gte(auditLog.at, since),
      ),
    )
    .limit(1);
  return sent !== undefined;
}

/** The customer's oldest bill before `month` with lines unpaid: what is owed on it and whether it is overdue. */
export async function oldestUnpaidBill(ex: Executor, customerId: number, month: string) {
  const [bill] = await rowsOf<{ month: string; amount: string; overdue: boolean }>(
    ex,
    sql`select s.month, sum(p.price) as amount, bool_or(s.overdue_at is not null) as overdue
      from ${statements} s join ${purchases} p on p.customer_id = s.customer_id and p.statement_month = s.month
      where s.customer_id = ${customerId} and p.status = 'UNPAID' and s.month < ${month}
      group by s.month order by s.month limit 1`,
  );
  return bill && { month: bill.month, amount: Number(bill.amount), overdue: bill.overdue };
}

/** Whether one of the customer's autopay debits is still waiting for the bank. */
export async function hasPendingDebit(ex: Executor, customerId: number): Promise<boolean> {
  const [open] = await ex
    .select({ id: autopayAttempts.id })
    .from(autopayAttempts)
    .where(and(eq(autopayAttempts.customerId, customerId), eq(autopayAttempts.status, 'PENDING')));
  return open !== undefined;
}

/** Sets the customer's debit account (its bank code in `account_name`). */
export async function setDebitAccount(tx: Tx, customerId: number, bankCode: string, account: string) {
  await tx.update(customers).set({ accountName: bankCode, account }).where(eq(customers.id, customerId));
}

/** A row of `select c.*` (snake_case) as the customers table's typed row. */
function customerOf(row: Record<string, unknown>): CustomerRow {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    account: row.account,
    gradePoint: row.grade_point,
    suspended: row.suspended,
  } as CustomerRow;
}
