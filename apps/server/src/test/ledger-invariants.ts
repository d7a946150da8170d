import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/tx';
import { VERIFICATION_DEPOSIT } from '../modules/bank/gateway';

/** An account whose ledger balance is not what the product's own tables say it should be. */
export interface LedgerMismatch {
  kind: string;
  ownerId: number;
  ledger: number;
  expected: number;
}

/**
 * The ledger's invariants against the facts' own tables (docs/rules/ledger.md#L4), each account in one
 * statement: a customer's receivable is their unpaid bill lines; a merchant's payable is sales − refunds −
 * fees − payouts (credit, so negative; fees as settled, payouts as the bank credited them); the points liability is the sum of the
 * customers' point balances; a customer's payable is their repaid lines refunded plus the autopay surpluses
 * not yet given back; the verification expense is 1원 for every 1원 인증 code the bank did not refuse (as the
 * reconciliation books them). Returns every account that disagrees (empty when the books agree).
 */
export async function ledgerMismatches(db: Db): Promise<LedgerMismatch[]> {
  const rows = await rowsOf<{ kind: string; owner_id: number; ledger: string; expected: string }>(
    db,
    sql`with expected (kind, owner_id, amount) as (
        select 'CUSTOMER_RECEIVABLE', customer_id, sum(price) from purchases where status = 'UNPAID' group by 2
        union all
        select 'MERCHANT_PAYABLE', merchant_id, -(sum(total_price) - coalesce(sum(total_price)
          filter (where status = 'REFUNDED'), 0)) from purchases group by 2
        union all
        select 'MERCHANT_PAYABLE', merchant_id, sum(fees) + coalesce(sum(payout) filter (where status = 'PAID'), 0)
          from settlements group by 2
        union all
        select 'POINTS_LIABILITY', 0, -coalesce(sum(point_balance), 0) from customers
        union all
        select 'CUSTOMER_PAYABLE', customer_id, -sum(amount) from refund_payouts group by 2
        union all
        select 'CUSTOMER_PAYABLE', customer_id, -sum(surplus) from autopay_attempts
          where surplus > 0 and surplus_refunded_at is null group by 2
        union all
        select 'VERIFICATION_EXPENSE', 0, count(*) * ${VERIFICATION_DEPOSIT} from account_verifications
          where status <> 'NOT_DELIVERED'
      ), wanted as (
        select kind, owner_id, sum(amount) as amount from expected group by 1, 2
      ), held as (
        select account_kind as kind, owner_id, sum(amount) as amount from ledger_lines
        where account_kind in ('CUSTOMER_RECEIVABLE', 'MERCHANT_PAYABLE', 'POINTS_LIABILITY', 'CUSTOMER_PAYABLE',
          'VERIFICATION_EXPENSE')
        group by 1, 2
      )
      select kind, owner_id, coalesce(held.amount, 0)::text as ledger, coalesce(wanted.amount, 0)::text as expected
      from wanted full join held using (kind, owner_id)
      where coalesce(held.amount, 0) <> coalesce(wanted.amount, 0)
      order by 1, 2`,
  );
  return rows.map((row) => ({
    kind: row.kind,
    ownerId: row.owner_id,
    ledger: Number(row.ledger),
    expected: Number(row.expected),
  }));
}

/** Entries whose lines do not sum to zero (the database refuses them at commit; this reads the lines again). */
export async function unbalancedEntries(db: Db): Promise<number[]> {
  const rows = await rowsOf<{ entry_id: string }>(
    db,
    sql`select entry_id from ledger_lines group by entry_id having sum(amount) <> 0`,
  );
  return rows.map((row) => Number(row.entry_id));
}

/** The entries posted for one source fact, with their lines (signed won, debit positive). */
export async function entriesOf(db: Db, sourceKind: string, sourceId: string | number) {
  return rowsOf<{ id: string; lines: Array<{ kind: string; owner: number; amount: number }> }>(
    db,
    sql`select e.id, json_agg(json_build_object('kind', l.account_kind, 'owner', l.owner_id, 'amount', l.amount)
        order by l.account_kind, l.owner_id) as lines
      from ledger_entries e join ledger_lines l on l.entry_id = e.id
      where e.source_kind = ${sourceKind} and e.source_id = ${String(sourceId)}
      group by e.id order by e.id`,
  );
}
