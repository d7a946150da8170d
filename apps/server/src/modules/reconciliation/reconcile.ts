import { addDays, kstStartOfDay } from '@ohgood/contract/kst';
import type { MovementDirection, ReconciliationMismatch } from '@ohgood/contract/reconciliation';
import { sql } from 'drizzle-orm';
import { purchases, reconciliations, repayments } from '../../db/schema';
import { rowsOf, type Tx } from '../../db/tx';
import type { BankMovement, BankStatements } from '../bank/gateway';
import { raiseStaffAlert, resolveStaffAlert } from '../ops/staff-alerts';
import { type BookEntry, kindOf, MOVEMENT_KINDS } from './movement-kinds';

/** The staff alert's kind for a day that does not reconcile (subject: the KST day). */
export const RECONCILIATION_ALERT = 'reconciliation';

type Side = { count: number; sum: number };
type Totals = Record<'debits' | 'credits', Side>;

/** A book entry with the direction of the movement it stands for. */
interface DirectedEntry extends BookEntry {
  direction: MovementDirection;
}

interface DayReconciliation {
  bank: Totals;
  books: Totals;
  mismatches: ReconciliationMismatch[];
}

const keyOf = (direction: MovementDirection, reference: string) => `${direction}:${reference}`;

/** Movements or entries by (direction, reference). */
function byKey<T extends { direction: MovementDirection; reference: string }>(items: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item.direction, item.reference);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

function totalsOf(items: ReadonlyArray<{ direction: MovementDirection; amount: number }>): Totals {
  const side = (direction: MovementDirection) => {
    const moved = items.filter((item) => item.direction === direction);
    return { count: moved.length, sum: moved.reduce((sum, item) => sum + item.amount, 0) };
  };
  return { debits: side('debit'), credits: side('credit') };
}

/**
 * Matches one day's movements with the books, by (direction, reference). `bank` and `books` cover the day and
 * a day either side, so a movement booked at 23:59 and settled at 00:01 matches; each pair is judged on the
 * day the bank booked it (or, with no bank line, the day our books did).
 */
function matchDay(
  from: Date,
  to: Date,
  bank: readonly BankMovement[],
  books: readonly DirectedEntry[],
): DayReconciliation {
  const inDay = (at: Date) => at >= from && at < to;
  const bankByKey = byKey(bank);
  const booksByKey = byKey(books);
  const mismatches: ReconciliationMismatch[] = [];
  const report = (
    kind: ReconciliationMismatch['kind'],
    direction: MovementDirection,
    reference: string,
    bankAmount: number | null,
    bookAmount: number | null,
  ) => mismatches.push({ kind, movement: kindOf(reference, direction), direction, reference, bankAmount, bookAmount });

  const todaysBank = bank.filter((m) => inDay(m.at));
  for (const [key, moved] of byKey(todaysBank)) {
    const first = moved[0] as BankMovement;
    const booked = booksByKey.get(key) ?? [];
    const { direction, reference } = first;
    // Twice at the bank under one key (today, or today and a day beside it), or twice in our books.
    if (moved.length > 1 || (bankByKey.get(key)?.length ?? 0) > moved.length || booked.length > 1) {
      report('duplicate', direction, reference, first.amount, booked[0]?.amount ?? null);
    } else if (booked.length === 0) report('missing_in_books', direction, reference, first.amount, null);
    else if (booked[0]?.amount !== first.amount) {
      report('amount_differs', direction, reference, first.amount, booked[0]?.amount ?? null);
    }
  }
  const todaysBooks = books.filter((e) => inDay(e.at));
  for (const entry of todaysBooks) {
    if (!bankByKey.has(keyOf(entry.direction, entry.reference))) {
      report('missing_at_bank', entry.direction, entry.reference, null, entry.amount);
    }
  }
  return { bank: totalsOf(todaysBank), books: totalsOf(todaysBooks), mismatches };
}

/** Repayments booked in [from, to) whose amount is not the sum of the lines that name them. */
async function unbalancedRepayments(tx: Tx, from: Date, to: Date): Promise<ReconciliationMismatch[]> {
  const rows = await rowsOf<{ id: number; amount: number; lines: string }>(
    tx,
    sql`select r.id, r.amount, coalesce((select sum(p.price) from ${purchases} p where p.repayment_id = r.id), 0) as lines
      from ${repayments} r where r.created_at >= ${from} and r.created_at < ${to} order by r.id`,
  );
  return rows
    .filter((row) => Number(row.lines) !== row.amount)
    .map((row) => ({
      kind: 'lines_do_not_sum' as const,
      movement: 'repayment',
      direction: null,
      reference: `repayment:${row.id}`,
      bankAmount: null,
      bookAmount: row.amount,
    }));
}

/**
 * Reconciles the KST day `day` (docs/rules/bills-and-grades.md#B20): every movement the bank booked that day
 * against exactly one book entry of its kind, every book entry against its movement, and every repayment
 * against its lines. Records the day's row (replacing an earlier run's) and raises a staff alert when
 * anything does not match, or resolves the day's alert when it now does.
 */
export async function reconcileDay(
  tx: Tx,
  statements: BankStatements,
  day: string,
  at: Date,
): Promise<{ day: string; mismatches: number; alert?: string }> {
  const from = kstStartOfDay(day);
  const to = kstStartOfDay(addDays(day, 1));
  const windowFrom = kstStartOfDay(addDays(day, -1));
  const windowTo = kstStartOfDay(addDays(day, 2));
  const bank = await statements.movements(windowFrom, windowTo);
  const books: DirectedEntry[] = [];
  for (const { direction, books: read } of MOVEMENT_KINDS) {
    books.push(...(await read(tx, windowFrom, windowTo)).map((entry) => ({ ...entry, direction })));
  }
  const matched = matchDay(from, to, bank, books);
  const mismatches = [...matched.mismatches, ...(await unbalancedRepayments(tx, from, to))];
  const row = {
    reconciledAt: at,
    bankDebits: matched.bank.debits.count,
    bankDebitSum: matched.bank.debits.sum,
    bankCredits: matched.bank.credits.count,
    bankCreditSum: matched.bank.credits.sum,
    bookDebits: matched.books.debits.count,
    bookDebitSum: matched.books.debits.sum,
    bookCredits: matched.books.credits.count,
    bookCreditSum: matched.books.credits.sum,
    mismatchCount: mismatches.length,
    mismatches,
  };
  await tx
    .insert(reconciliations)
    .values({ day, ...row })
    .onConflictDoUpdate({ target: reconciliations.day, set: row });
  if (mismatches.length === 0) {
    await resolveStaffAlert(tx, RECONCILIATION_ALERT, day, at);
    return { day, mismatches: 0 };
  }
  const alert = `${day} 대사에서 불일치 ${mismatches.length}건이 발견됐어요. 운영 콘솔의 대사 화면에서 확인해주세요.`;
  await raiseStaffAlert(tx, { kind: RECONCILIATION_ALERT, subject: day, message: alert }, at);
  return { day, mismatches: mismatches.length, alert };
}
