import { kstIso } from '@ohgood/contract/kst';
import type { TimelineItem, TimelineKind } from '@ohgood/contract/ops-desk';
import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import {
  auditLog,
  autopayAttempts,
  contactNotes,
  notifications,
  purchases,
  repayments,
  statements,
} from '../../../db/schema';
import { rowsOf } from '../../../db/tx';
import { type KeyColumn, keysetPage } from './keyset';

/**
 * A customer's timeline (docs/rules/operations.md#O17): every fact about them from the tables that hold it,
 * merged newest first and paged by (instant in microseconds, kind, row id) — unique, so no item shows twice
 * across pages even when several share a timestamp. Staff actions come from the audit log without their
 * before/after values (a reveal's value never reaches the timeline); a note's own audit row is not repeated.
 */

const PAGE = 40;
const KEYS: readonly KeyColumn[] = [
  { name: 'at_us', type: 'bigint' },
  { name: 'kind', type: 'text' },
  { name: 'row_id', type: 'bigint' },
];

/** Each source as rows of (at, kind, row_id, amount, status, title, detail, staff_name, promise_date). */
function sources(customerId: number) {
  const none = sql`null::text`;
  return sql`
    select p.created_at as at, 'payment' as kind, p.id::bigint as row_id, p.total_price as amount,
      p.status as status, p.request_name as title, ${none} as detail, ${none} as staff_name, ${none} as promise_date
    from ${purchases} p where p.customer_id = ${customerId}
    union all
    select p.refunded_at, 'refund', p.id, p.total_price, null, p.request_name, null, null, null
    from ${purchases} p where p.customer_id = ${customerId} and p.refunded_at is not null
    union all
    select s.created_at, 'statement', s.id, null, null, s.month, null, null, null
    from ${statements} s where s.customer_id = ${customerId}
    union all
    select s.extended_at, 'extension', s.id, null, s.extension, s.month, null, null, null
    from ${statements} s where s.customer_id = ${customerId} and s.extended_at is not null
    union all
    select s.overdue_at, 'overdue', s.id, null, null, s.month, null, null, null
    from ${statements} s where s.customer_id = ${customerId} and s.overdue_at is not null
    union all
    select r.created_at, 'repayment', r.id, r.amount, null, '', null, null, null
    from ${repayments} r where r.customer_id = ${customerId}
    union all
    select coalesce(a.finished_at, a.created_at), 'autopay', a.id, a.amount, a.status, s.month, a.result, null, null
    from ${autopayAttempts} a join ${statements} s on s.id = a.statement_id where a.customer_id = ${customerId}
    union all
    select n.created_at, 'notice', n.id, null, n.kind, n.title, n.body, null, null
    from ${notifications} n where n.customer_id = ${customerId}
    union all
    select l.at, 'staff', l.id, null, l.action, l.reason, null, l.staff_name, null
    from ${auditLog} l
    where l.target_type = 'customer' and l.target_id = ${String(customerId)} and l.action <> 'customer.note'
    union all
    select n.created_at, 'note', n.id, null, n.outcome, n.body, n.channel, n.staff_name, n.promise_date::text
    from ${contactNotes} n where n.customer_id = ${customerId}`;
}

interface Row extends Record<string, unknown> {
  at: Date;
  kind: TimelineKind;
  row_id: string;
  amount: number | null;
  status: string | null;
  title: string;
  detail: string | null;
  staff_name: string | null;
  promise_date: string | null;
}

export async function customerTimeline(db: Db, customerId: number, cursor?: string) {
  const inner = sql`select u.*, (extract(epoch from u.at) * 1000000)::bigint as at_us from (${sources(customerId)}) u`;
  const page = await keysetPage((query) => rowsOf<Row>(db, query), inner, {
    keys: KEYS,
    dir: 'desc',
    cursor,
    limit: PAGE,
  });
  return {
    items: page.rows.map(
      (row): TimelineItem => ({
        id: `${row.kind}:${row.row_id}`,
        at: kstIso(row.at),
        kind: row.kind,
        amount: row.amount,
        status: row.status,
        title: row.title,
        detail: row.detail,
        staffName: row.staff_name,
        promiseDate: row.promise_date,
      }),
    ),
    nextCursor: page.nextCursor,
  };
}
