import { kstDate, kstIso } from '@ohgood/contract/kst';
import type {
  CustomerFilter,
  FailedDebitRow,
  FailedDebitsQuery,
  OverdueQuery,
  OverdueRow,
  PendingQuery,
  PendingRow,
  WorkListName,
} from '@ohgood/contract/ops-desk';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { autopayAttempts, contactNotes, customers, purchases, statements } from '../../../db/schema';
import { rowsOf } from '../../../db/tx';
import type { Clock } from '../../../lib/clock';
import { consentInForceSql } from '../../autopay/standing';
import { type MaskableCustomer, rowOf } from '../customers-reads';
import { filterOf, workListWhere } from './customer-filter';
import { keysetPage, SORT_AND_ID } from './keyset';

/**
 * The work lists behind the console home's counts (docs/rules/operations.md#O16): each selects its customers
 * with `workListWhere` (the list and the filter, shared with bulk actions), sorts by one value and pages by
 * (value, row id). Customers are masked as on search.
 */

const PAGE = 30;
const c = sql`c`;

/** The customer's columns every list reads, under the names `rowOf` takes. */
const customerColumns = sql`c.id, c.name, c.email, c.account, c.grade_point as "gradePoint", c.suspended`;

type Raw<T> = MaskableCustomer & T & { sort_value: string; row_id: string };

/** Who a list shows: the one condition a bulk action on the same list and filter also selects with. */
const onList = (list: WorkListName, query: CustomerFilter, today: string) =>
  workListWhere(c, { list, ...filterOf(query) }, today);

export function createWorkLists(db: Db, clock: Clock) {
  const run =
    <R>() =>
    (query: SQL) =>
      rowsOf<R>(db, query);

  return {
    /** Customers owing on an overdue statement: how much, since when, and the latest promise to pay. */
    async overdue(query: OverdueQuery) {
      const today = kstDate(clock.now());
      const days = sql`(${today}::date - (o.since at time zone 'Asia/Seoul')::date)`;
      const sortBy = { amount: sql`o.amount`, days, customer: sql`c.id` }[query.sort];
      const inner = sql`
        select ${customerColumns}, o.amount, ${days} as days, o.oldest_month,
          (select n.promise_date::text from ${contactNotes} n
            where n.customer_id = c.id and n.promise_date is not null order by n.id desc limit 1) as promise_date,
          ${sortBy}::bigint as sort_value, c.id::bigint as row_id
        from ${customers} c
        cross join lateral (select sum(p.price)::bigint as amount, min(s.overdue_at) as since,
                min(s.month) as oldest_month
              from ${statements} s join ${purchases} p
                on p.customer_id = s.customer_id and p.statement_month = s.month and p.status = 'UNPAID'
              where s.customer_id = c.id and s.overdue_at is not null) o
        where ${onList('overdue', query, today)}`;
      type R = Raw<{ amount: string; days: number; oldest_month: string; promise_date: string | null }>;
      const page = await keysetPage(run<R>(), inner, { keys: SORT_AND_ID, ...query, limit: PAGE });
      return {
        items: page.rows.map(
          (row): OverdueRow => ({
            ...rowOf(row),
            amount: Number(row.amount),
            daysOverdue: Number(row.days),
            oldestMonth: row.oldest_month,
            promiseDate: row.promise_date,
          }),
        ),
        nextCursor: page.nextCursor,
      };
    },

    /** Today's (KST) autopay debits the bank refused, with its answer. */
    async failedDebits(query: FailedDebitsQuery) {
      const today = kstDate(clock.now());
      const sortBy = { recent: sql`a.id`, amount: sql`coalesce(a.amount, 0)` }[query.sort];
      const inner = sql`
        select ${customerColumns}, a.id as attempt_id, a.amount, a.result, a.tries, s.month,
          coalesce(a.finished_at, a.created_at) as at, ${sortBy}::bigint as sort_value, a.id::bigint as row_id
        from ${autopayAttempts} a
        join ${customers} c on c.id = a.customer_id
        join ${statements} s on s.id = a.statement_id
        where a.kst_date = ${today}::date and a.status = 'FAILED' and ${onList('failed-debits', query, today)}`;
      type R = Raw<{
        attempt_id: number;
        amount: number | null;
        result: string | null;
        tries: number;
        month: string;
        at: Date;
      }>;
      const page = await keysetPage(run<R>(), inner, { keys: SORT_AND_ID, ...query, limit: PAGE });
      return {
        items: page.rows.map(
          (row): FailedDebitRow => ({
            ...rowOf(row),
            attemptId: row.attempt_id,
            month: row.month,
            amount: row.amount,
            result: row.result,
            tries: row.tries,
            at: kstIso(row.at),
          }),
        ),
        nextCursor: page.nextCursor,
      };
    },

    /** Customers with autopay switched on who are not debited yet: consent or 1원 인증 missing (#B21–#B23). */
    async pendingVerification(query: PendingQuery) {
      const today = kstDate(clock.now());
      const inner = sql`
        select ${customerColumns}, c.created_at,
          case when ${consentInForceSql(c)} then 'verification' else 'consent' end as reason,
          c.id::bigint as sort_value, c.id::bigint as row_id
        from ${customers} c
        where ${onList('autopay-pending', query, today)}`;
      type R = Raw<{ created_at: Date; reason: 'consent' | 'verification' }>;
      const page = await keysetPage(run<R>(), inner, { keys: SORT_AND_ID, ...query, limit: PAGE });
      return {
        items: page.rows.map(
          (row): PendingRow => ({ ...rowOf(row), reason: row.reason, joinedAt: kstIso(row.created_at) }),
        ),
        nextCursor: page.nextCursor,
      };
    },
  };
}
export type WorkLists = ReturnType<typeof createWorkLists>;
