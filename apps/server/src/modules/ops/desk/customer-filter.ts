import { gradeByName } from '@ohgood/contract/grades';
import { kstEndOfDay, kstStartOfDay } from '@ohgood/contract/kst';
import type { CustomerFilter, WorkListFilter, WorkListName } from '@ohgood/contract/ops-desk';
import { type SQL, sql } from 'drizzle-orm';
import { autopayAttempts, purchases, statements } from '../../../db/schema';
import { autopayActiveSql } from '../../autopay/standing';

/**
 * The one place a console filter becomes SQL (docs/rules/operations.md#O16, #O21): who is on each work list,
 * narrowed by the filter. Every work list selects its customers with `workListWhere`, and a bulk action on "a
 * filtered list" (reminders, suspensions, lifts: its preview, and its confirm under each customer's lock)
 * with the very same call, so what staff saw is what they act on.
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

/** A work list and its filter fields, without anything else a request carries (an action, a reason). */
export const workListOf = (request: WorkListFilter): WorkListFilter => ({ list: request.list, ...filterOf(request) });

/** Who is on a work list on the KST day `today` (`customer` is the customer row's alias). */
function onWorkListSql(customer: SQL, list: WorkListName, today: string): SQL {
  switch (list) {
    case 'overdue':
      return overdueSql(customer);
    case 'failed-debits':
      // The bank refused one of the customer's autopay debits today.
      return sql`exists (select 1 from ${autopayAttempts} f where f.customer_id = ${customer}.id
        and f.kst_date = ${today}::date and f.status = 'FAILED')`;
    case 'autopay-pending':
      // Autopay switched on but not debited yet: the consent or the 1원 인증 is missing.
      return sql`(${customer}.autopay and not ${autopayActiveSql(customer)})`;
    default:
      // A list this server does not know (a preview signed by an older one) names nobody.
      return sql`false`;
  }
}

/** A work list narrowed by its filter, as one SQL condition on the customer row aliased `customer`. */
export function workListWhere(customer: SQL, filter: WorkListFilter, today: string): SQL {
  return sql`(${onWorkListSql(customer, filter.list, today)} and ${customerFilterSql(customer, filterOf(filter))})`;
}
