import { kstIso } from '@ohgood/contract/kst';
import { DEBIT_RESULT_LABELS, type DebitRow } from '@ohgood/contract/ops-collections';
import { desc, eq } from 'drizzle-orm';
import { autopayAttempts, statements } from '../../db/schema';
import type { Executor } from '../../db/tx';

function textOf(status: string, result: string | null): string {
  if (status === 'PENDING') return result ? `출금 진행 중 (${DEBIT_RESULT_LABELS[result] ?? result})` : '출금 진행 중';
  return (result && DEBIT_RESULT_LABELS[result]) ?? result ?? status;
}

const columns = {
  attempt: autopayAttempts,
  month: statements.month,
};

type Joined = { attempt: typeof autopayAttempts.$inferSelect; month: string };

function rowOf({ attempt, month }: Joined): DebitRow {
  return {
    attemptId: attempt.id,
    statementId: attempt.statementId,
    month,
    date: attempt.kstDate,
    round: attempt.round,
    status: attempt.status as DebitRow['status'],
    result: attempt.result,
    resultText: textOf(attempt.status, attempt.result),
    amount: attempt.amount,
    finishedAt: attempt.finishedAt ? kstIso(attempt.finishedAt) : null,
  };
}

/** A customer's autopay debits with the bank's answers, newest first. */
export async function debitsOf(db: Executor, customerId: number, limit = 30): Promise<DebitRow[]> {
  const rows = await db
    .select(columns)
    .from(autopayAttempts)
    .innerJoin(statements, eq(statements.id, autopayAttempts.statementId))
    .where(eq(autopayAttempts.customerId, customerId))
    .orderBy(desc(autopayAttempts.id))
    .limit(limit);
  return rows.map(rowOf);
}

export async function debitOf(db: Executor, attemptId: number): Promise<DebitRow> {
  const [row] = await db
    .select(columns)
    .from(autopayAttempts)
    .innerJoin(statements, eq(statements.id, autopayAttempts.statementId))
    .where(eq(autopayAttempts.id, attemptId));
  if (!row) throw new Error(`autopay attempt ${attemptId} missing`);
  return rowOf(row);
}
