import { gradeByName } from '@ohgood/contract/grades';
import { kstEndOfDay, kstStartOfDay } from '@ohgood/contract/kst';
import type { CustomerFilter } from '@ohgood/contract/ops-desk';
import { type SQL, sql } from 'drizzle-orm';
import { purchases, statements } from '../../../db/schema';

/**
 * The one place a console filter becomes SQL (docs/rules/operations.md#O16): every work list narrows its
 * customers with it, and an action on "a filtered list" (bulk reminders, suspensions) must select its
 * customers with the same function, so what staff saw is what they act on.
 */

/** The customer (`customer` is its row alias) owes on a statement that went overdue. */
export const overdueSql = (customer: SQL) =>
  sql`exists (select 1 from ${statements} s join ${purchases} p
    on p.customer_id = s.customer_id and p.statement_month = s.month and p.status = 'UNPAID'
    where s.customer_id = ${customer}.id and s.overdue_at is not null)`;

/** The filter as one SQL condition on the customer row aliased `customer` (true when the filter is empty). */
export function customerFilterSql(customer: SQL, filter: CustomerFilter): SQL {
  const where: SQL[] = [];
  if (filter.grade) {
    const grade = gradeByName(filter.grade);
    where.push(sql`${customer}.grade_point between ${grade.min} and ${grade.max}`);
  }
  const suspended = {
    yes: sql`${customer}.suspended`,
    no: sql`not ${customer}.suspended`,
    staff: sql`${customer}.staff_suspended`,
    // Suspended by the bills (an overdue statement) and not by an operator.
    system: sql`(${customer}.suspended and not ${customer}.staff_suspended)`,
  };
  if (filter.suspended) where.push(suspended[filter.suspended]);
  if (filter.autopay) where.push(filter.autopay === 'on' ? sql`${customer}.autopay` : sql`not ${customer}.autopay`);
  if (filter.overdue) where.push(filter.overdue === 'yes' ? overdueSql(customer) : sql`not ${overdueSql(customer)}`);
  if (filter.joinedFrom) where.push(sql`${customer}.created_at >= ${kstStartOfDay(filter.joinedFrom).toISOString()}`);
  if (filter.joinedTo) where.push(sql`${customer}.created_at < ${kstEndOfDay(filter.joinedTo).toISOString()}`);
  return where.length > 0 ? sql.join(where, sql` and `) : sql`true`;
}

/** The filter fields of a list's query, without its sort and cursor. */
export function filterOf(query: CustomerFilter): CustomerFilter {
  const { grade, suspended, autopay, overdue, joinedFrom, joinedTo } = query;
  return { grade, suspended, autopay, overdue, joinedFrom, joinedTo };
}
