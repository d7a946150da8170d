import { sql } from 'drizzle-orm';
import { autopayAttempts, purchases, statements } from '../../db/schema';
import { overdueSql } from '../ops/desk/customer-filter';

/*
 * What a collections row shows beside the customer. Which customers a list or a bulk action names is not
 * decided here: that is the work lists' one condition (ops/desk/customer-filter.ts `workListWhere`).
 */

/** Owed past due, the oldest such month, whether overdue, today's refusal (on the customer row aliased `c`). */
export const collectionFactsSql = (today: string) => sql`
  (select coalesce(sum(p.price), 0)::int from ${purchases} p join ${statements} s on s.customer_id = p.customer_id
    and s.month = p.statement_month where p.customer_id = c.id and p.status = 'UNPAID'
    and s.month < ${today.slice(0, 7)}) as owed,
  (select min(s.month) from ${statements} s where s.customer_id = c.id and s.month < ${today.slice(0, 7)}
    and exists (select 1 from ${purchases} p where p.customer_id = c.id and p.statement_month = s.month
      and p.status = 'UNPAID')) as oldest_month,
  ${overdueSql(sql`c`)} as overdue,
  (select a.result from ${autopayAttempts} a where a.customer_id = c.id and a.kst_date = ${today}
    and a.status = 'FAILED' order by a.id desc limit 1) as failed_today`;
