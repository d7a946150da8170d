import { kstIso } from '@ohgood/contract/kst';
import type { ReconciliationDay, ReconciliationDetail } from '@ohgood/contract/reconciliation';
import { desc, eq } from 'drizzle-orm';
import { reconciliations } from '../../db/schema';
import type { Executor } from '../../db/tx';
import { notFound } from '../../lib/errors';

type Row = typeof reconciliations.$inferSelect;

/** How many days the console's list shows (the newest). */
const RECENT_DAYS = 31;

const dayOf = (row: Row): ReconciliationDay => ({
  day: row.day,
  reconciledAt: kstIso(row.reconciledAt),
  bank: {
    debits: { count: row.bankDebits, sum: row.bankDebitSum },
    credits: { count: row.bankCredits, sum: row.bankCreditSum },
  },
  books: {
    debits: { count: row.bookDebits, sum: row.bookDebitSum },
    credits: { count: row.bookCredits, sum: row.bookCreditSum },
  },
  mismatchCount: row.mismatchCount,
});

/** The newest reconciled days, newest first. */
export async function recentReconciliations(executor: Executor): Promise<ReconciliationDay[]> {
  const rows = await executor.select().from(reconciliations).orderBy(desc(reconciliations.day)).limit(RECENT_DAYS);
  return rows.map(dayOf);
}

/** One reconciled day with its mismatches; 404 for a day not reconciled. */
export async function reconciliationOf(executor: Executor, day: string): Promise<ReconciliationDetail> {
  const [row] = await executor.select().from(reconciliations).where(eq(reconciliations.day, day));
  if (!row) throw notFound('RECONCILIATION_NOT_FOUND', '그 날짜의 대사 결과가 없어요.');
  return { ...dayOf(row), mismatches: row.mismatches };
}

/** The latest reconciled day and its mismatch count (the console's home, `/metrics`); null before any. */
export async function latestReconciliation(executor: Executor): Promise<{ day: string; mismatches: number } | null> {
  const [row] = await executor
    .select({ day: reconciliations.day, mismatches: reconciliations.mismatchCount })
    .from(reconciliations)
    .orderBy(desc(reconciliations.day))
    .limit(1);
  return row ?? null;
}
