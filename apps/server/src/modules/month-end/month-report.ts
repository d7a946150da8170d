import { BILL_RULES } from '@ohgood/contract/bill-rules';
import { kstEndOfDay, kstStartOfDay, monthDates } from '@ohgood/contract/kst';
import { AGEING_BUCKETS, type AgeingBucket, type MonthEndReport, type Tally } from '@ohgood/contract/month-end';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type Executor, rowsOf } from '../../db/tx';
import { dueDate } from '../bills/statements';

/*
 * The month-end report (docs/rules/operations.md#O14): one statement month's bill lines by what became of them,
 * and every customer's unpaid lines by days overdue, as they stood at the end of a KST day. Every fact the
 * figures read is timestamped on the app clock and never undone (a line is paid, or refunded, once), so a past
 * day reads exactly as it stood. The figures come from the facts' own tables; the ageing's total is checked
 * against the ledger's customer receivable, read at the same instant in the same snapshot.
 */

/**
 * The SQL twin of `dueDate` (bills/statements.ts) for a statement-month column: the 15th of M+1, or its last day
 * once extended. `month-report.test.ts` holds the two to the same answers.
 */
export function dueDateSql(month: SQL, extended: SQL): SQL {
  const first = sql`to_date(${month} || '-01', 'YYYY-MM-DD')`;
  return sql`(case when ${extended}
    then (${first} + interval '2 months')::date - 1
    else (${first} + interval '1 month')::date + ${BILL_RULES.dueDay - 1}::int end)`;
}

type LineState = 'paidEarly' | 'autopaid' | 'paidLate' | 'refundedUnpaid' | 'outstanding';

interface StateRow {
  state: LineState;
  lines: number;
  amount: string;
  /** What of it sits on statements gone overdue by then. */
  overdue_amount: string;
}

const none = (): Tally => ({ count: 0, amount: 0 });

/**
 * What became of each line of `month` by `end`: repaid (by autopay, or by the customer on or before the due
 * date in force when they paid, or after it), refunded while unpaid, or still outstanding.
 */
async function lineStates(tx: Executor, month: string, end: Date) {
  const rows = await rowsOf<StateRow>(
    tx,
    sql`with lines as (
        select p.price, s.overdue_at is not null and s.overdue_at < ${end} as overdue,
          case
            when p.paid_at is not null and p.paid_at < ${end} then
              case when auto.repayment_id is not null then 'autopaid'
                when (p.paid_at at time zone 'Asia/Seoul')::date <= ${dueDateSql(
                  sql`s.month`,
                  sql`s.extension is not null and s.extended_at <= p.paid_at`,
                )} then 'paidEarly'
                else 'paidLate' end
            when p.refunded_at is not null and p.refunded_at < ${end} then 'refundedUnpaid'
            else 'outstanding'
          end as state
        from purchases p
        join statements s on s.customer_id = p.customer_id and s.month = p.statement_month
        left join (select distinct repayment_id from autopay_attempts where repayment_id is not null) auto
          on auto.repayment_id = p.repayment_id
        where p.statement_month = ${month} and p.created_at < ${end}
      )
      select state, count(*)::int as lines, sum(price)::text as amount,
        coalesce(sum(price) filter (where overdue and state = 'outstanding'), 0)::text as overdue_amount
      from lines group by state`,
  );
  return rows;
}

/** The statements with a line billed (every line but those refunded while unpaid), and what those lines owe. */
async function billedStatements(tx: Executor, month: string, end: Date): Promise<Tally> {
  const [row] = await rowsOf<{ count: number; amount: string }>(
    tx,
    sql`select count(distinct s.id)::int as count, coalesce(sum(p.price), 0)::text as amount
      from purchases p join statements s on s.customer_id = p.customer_id and s.month = p.statement_month
      where p.statement_month = ${month} and p.created_at < ${end}
        and not (p.paid_at is null and p.refunded_at is not null and p.refunded_at < ${end})`,
  );
  return { count: row?.count ?? 0, amount: Number(row?.amount ?? 0) };
}

/** Statements of the month extended (by hand, by the job) and gone overdue, and the debits the bank refused. */
async function statementFacts(tx: Executor, month: string, end: Date) {
  const [row] = await rowsOf<{ manual: number; auto: number; overdue: number; failed: number; failed_amount: string }>(
    tx,
    sql`select
        (select count(*)::int from statements where month = ${month} and extension = 'MANUAL' and extended_at < ${end}) as manual,
        (select count(*)::int from statements where month = ${month} and extension = 'AUTO' and extended_at < ${end}) as auto,
        (select count(*)::int from statements where month = ${month} and overdue_at < ${end}) as overdue,
        count(a.id)::int as failed, coalesce(sum(a.amount), 0)::text as failed_amount
      from autopay_attempts a join statements s on s.id = a.statement_id
      where s.month = ${month} and a.status = 'FAILED' and a.finished_at < ${end}`,
  );
  return row;
}

/** Every customer's lines unpaid at `end`, by whole KST days past their due date on `asOf`. */
async function ageing(tx: Executor, asOf: string, end: Date) {
  const rows = await rowsOf<{ bucket: AgeingBucket; customers: number; amount: string }>(
    tx,
    sql`with unpaid as (
        select p.customer_id, p.price,
          ${asOf}::date - ${dueDateSql(sql`s.month`, sql`s.extension is not null and s.extended_at < ${end}`)} as late
        from purchases p join statements s on s.customer_id = p.customer_id and s.month = p.statement_month
        where p.created_at < ${end} and (p.paid_at is null or p.paid_at >= ${end})
          and (p.refunded_at is null or p.refunded_at >= ${end})
      )
      select case when late <= 0 then 'current' when late <= 30 then 'd1to30' when late <= 60 then 'd31to60'
          else 'd61plus' end as bucket,
        count(distinct customer_id)::int as customers, sum(price)::text as amount
      from unpaid group by 1`,
  );
  const byBucket = new Map(rows.map((row) => [row.bucket, row]));
  const buckets = AGEING_BUCKETS.map((bucket) => ({
    bucket,
    customers: byBucket.get(bucket)?.customers ?? 0,
    amount: Number(byBucket.get(bucket)?.amount ?? 0),
  }));
  return { buckets, total: buckets.reduce((sum, b) => sum + b.amount, 0) };
}

/** The ledger's customer receivable at `end`: every line on it posted before then (docs/rules/ledger.md#L4). */
async function ledgerReceivable(tx: Executor, end: Date): Promise<number> {
  const [row] = await rowsOf<{ amount: string }>(
    tx,
    sql`select coalesce(sum(l.amount), 0)::text as amount
      from ledger_lines l join ledger_entries e on e.id = l.entry_id
      where l.account_kind = 'CUSTOMER_RECEIVABLE' and e.posted_at < ${end}`,
  );
  return Number(row?.amount ?? 0);
}

/**
 * The merchants' side of the calendar month from the ledger: sales and refunds on their payables, and what
 * settlement posts on the same accounts (a fee: fee revenue; a payout: bank clearing against a merchant payable).
 */
async function merchantsOf(tx: Executor, month: string) {
  const { first, nextFirst } = monthDates(month);
  const [row] = await rowsOf<{ sales: string; refunds: string; fees: string; payouts: string }>(
    tx,
    sql`with lines as (
        select e.id, e.source_kind, l.account_kind, l.amount from ledger_entries e
        join ledger_lines l on l.entry_id = e.id
        where e.posted_at >= ${kstStartOfDay(first)} and e.posted_at < ${kstStartOfDay(nextFirst)}
      ), paying as (
        select distinct id from lines where account_kind = 'MERCHANT_PAYABLE' and amount > 0
      )
      select
        coalesce(-sum(amount) filter (where source_kind = 'payment' and account_kind = 'MERCHANT_PAYABLE'), 0)::text as sales,
        coalesce(sum(amount) filter (where source_kind = 'refund' and account_kind = 'MERCHANT_PAYABLE'), 0)::text as refunds,
        coalesce(-sum(amount) filter (where account_kind = 'FEE_REVENUE'), 0)::text as fees,
        coalesce(-sum(amount) filter (where account_kind = 'BANK_CLEARING' and id in (select id from paying)), 0)::text
          as payouts
      from lines`,
  );
  return {
    sales: Number(row?.sales ?? 0),
    refunds: Number(row?.refunds ?? 0),
    fees: Number(row?.fees ?? 0),
    payouts: Number(row?.payouts ?? 0),
  };
}

/** The report of statement month `month` as it stood at the end of KST day `asOf`, read in one snapshot. */
export function monthEndReport(db: Db, month: string, asOf: string): Promise<MonthEndReport> {
  return db.transaction((tx) => readMonthEnd(tx, month, asOf), {
    isolationLevel: 'repeatable read',
    accessMode: 'read only',
  });
}

/** The report read inside a snapshot the caller holds (a download's transaction). */
export async function readMonthEnd(tx: Executor, month: string, asOf: string): Promise<MonthEndReport> {
  const end = kstEndOfDay(asOf);
  const states = new Map((await lineStates(tx, month, end)).map((row) => [row.state, row]));
  const tallyOf = (state: LineState): Tally => {
    const row = states.get(state);
    return row ? { count: row.lines, amount: Number(row.amount) } : none();
  };
  const overdueAmount = [...states.values()].reduce((sum, row) => sum + Number(row.overdue_amount), 0);
  const facts = await statementFacts(tx, month, end);
  const aged = await ageing(tx, asOf, end);
  return {
    month,
    asOf,
    dueDate: dueDate(month, false),
    extendedDueDate: dueDate(month, true),
    statements: {
      issued: await billedStatements(tx, month, end),
      refundedUnpaid: tallyOf('refundedUnpaid'),
      paidEarly: tallyOf('paidEarly'),
      autopaid: tallyOf('autopaid'),
      paidLate: tallyOf('paidLate'),
      outstanding: tallyOf('outstanding'),
      writtenOff: none(),
      extended: { manual: facts?.manual ?? 0, auto: facts?.auto ?? 0 },
      overdue: { count: facts?.overdue ?? 0, amount: overdueAmount },
      failedDebits: { count: facts?.failed ?? 0, amount: Number(facts?.failed_amount ?? 0) },
    },
    ageing: { ...aged, ledgerReceivable: await ledgerReceivable(tx, end) },
    merchants: await merchantsOf(tx, month),
  };
}
