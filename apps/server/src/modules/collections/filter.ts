import { gradeByName } from '@ohgood/contract/grades';
import type { CollectionFilter } from '@ohgood/contract/ops-collections';
import { type SQL, sql } from 'drizzle-orm';
import { autopayAttempts, purchases, statements } from '../../db/schema';

/*
 * The collections list's filter, in one place: which customers a filter names, as SQL on the customers row
 * aliased `c`, for the KST day `today`. The list, a bulk action's preview and its confirm (re-checking each
 * customer under the lock) all read this one predicate, so the lead can swap it for the console work lists'
 * filters in one edit.
 */

/** The customer has a bill past its overdue mark with lines still unpaid. */
const overdueSql = sql`exists (select 1 from ${statements} s join ${purchases} p on p.customer_id = s.customer_id
  and p.statement_month = s.month and p.status = 'UNPAID' where s.customer_id = c.id and s.overdue_at is not null)`;

/** The bank refused one of the customer's autopay debits today. */
const failedTodaySql = (today: string) =>
  sql`exists (select 1 from ${autopayAttempts} a where a.customer_id = c.id and a.kst_date = ${today}
    and a.status = 'FAILED')`;

export function filterSql(filter: CollectionFilter, today: string): SQL {
  switch (filter.filter) {
    case 'overdue':
      return overdueSql;
    case 'failed-today':
      return failedTodaySql(today);
    case 'grade': {
      // Without a grade the filter names nobody, rather than everyone.
      if (!filter.grade) return sql`false`;
      const grade = gradeByName(filter.grade);
      return sql`c.grade_point between ${grade.min} and ${grade.max}`;
    }
  }
}

/** What a row of the list shows beside the customer: owed past due, the oldest such month, today's refusal. */
export const collectionFactsSql = (today: string) => sql`
  (select coalesce(sum(p.price), 0)::int from ${purchases} p join ${statements} s on s.customer_id = p.customer_id
    and s.month = p.statement_month where p.customer_id = c.id and p.status = 'UNPAID'
    and s.month < ${today.slice(0, 7)}) as owed,
  (select min(s.month) from ${statements} s where s.customer_id = c.id and s.month < ${today.slice(0, 7)}
    and exists (select 1 from ${purchases} p where p.customer_id = c.id and p.statement_month = s.month
      and p.status = 'UNPAID')) as oldest_month,
  ${overdueSql} as overdue,
  (select a.result from ${autopayAttempts} a where a.customer_id = c.id and a.kst_date = ${today}
    and a.status = 'FAILED' order by a.id desc limit 1) as failed_today`;
