import { LEDGER_ACCOUNT_KINDS, type LedgerAccountKind, type TrialBalance } from '@ohgood/contract/ledger';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/tx';

interface KindRow {
  kind: LedgerAccountKind;
  accounts: number;
  debit: string;
  credit: string;
  entries: number;
  unbalanced: number;
}

/**
 * The trial balance (docs/rules/ledger.md#L5): each account's balance, summed by kind into its debit and credit
 * sides, read in one statement so every figure comes from the same snapshot. The books balance when debits
 * equal credits and no entry's lines sum to anything but zero (the database refuses such an entry at commit;
 * this reads it again from the lines, as an auditor would).
 */
export async function trialBalance(db: Db): Promise<TrialBalance> {
  const rows = await rowsOf<KindRow>(
    db,
    sql`with balances as (
        select account_kind, owner_id, sum(amount) as balance from ledger_lines group by 1, 2
      ), kinds as (
        select a.kind, count(*)::int as accounts,
          coalesce(sum(b.balance) filter (where b.balance > 0), 0)::text as debit,
          coalesce(-sum(b.balance) filter (where b.balance < 0), 0)::text as credit
        from ledger_accounts a
        left join balances b on b.account_kind = a.kind and b.owner_id = a.owner_id
        group by a.kind
      )
      select kinds.*,
        (select count(*)::int from ledger_entries) as entries,
        (select count(*)::int from (select entry_id from ledger_lines group by 1 having sum(amount) <> 0) u)
          as unbalanced
      from kinds`,
  );
  const byKind = new Map(rows.map((row) => [row.kind, row]));
  const kinds = LEDGER_ACCOUNT_KINDS.map((kind) => {
    const row = byKind.get(kind);
    return { kind, accounts: row?.accounts ?? 0, debit: Number(row?.debit ?? 0), credit: Number(row?.credit ?? 0) };
  });
  const totalDebit = kinds.reduce((sum, row) => sum + row.debit, 0);
  const totalCredit = kinds.reduce((sum, row) => sum + row.credit, 0);
  const entries = rows[0]?.entries ?? 0;
  const unbalanced = rows[0]?.unbalanced ?? 0;
  return { kinds, totalDebit, totalCredit, entries, balanced: totalDebit === totalCredit && unbalanced === 0 };
}
