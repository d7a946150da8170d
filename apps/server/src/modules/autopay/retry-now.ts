import { and, eq, sql } from 'drizzle-orm';
import { autopayAttempts, customers, purchases, statements } from '../../db/schema';
import { rowsOf, type Tx } from '../../db/tx';
import { conflict } from '../../lib/errors';
import { autopayActiveSql } from './standing';

/** Why a statement's debit cannot be asked for now, in the console's words. */
const NOT_RETRYABLE = {
  missing: '이 고객의 청구서가 아닙니다.',
  overdue: '연체된 청구서는 자동 납부로 다시 출금하지 않습니다.',
  inactive: '자동 납부가 켜져 있지 않거나 계좌 인증 전입니다.',
  nothingDue: '남은 청구 금액이 없습니다.',
  neverFailed: '실패한 자동 납부가 없는 청구서입니다. 납부일의 자동 납부를 기다려 주세요.',
} as const;

export interface RetryAttempt {
  attemptId: number;
  /** false when the statement already had an open attempt: that one is the debit, none is added. */
  created: boolean;
}

/**
 * Opens the attempt a staff retry debits (docs/rules/operations.md#O18), in the caller's transaction under the
 * customer's lock: only for a statement autopay would debit (the customer's, autopay in force, not overdue,
 * with unpaid lines) whose debit failed before. A statement that already has an open attempt (the plan's, or another retry's) gets no
 * second one: the retry debits that one, under its key. Otherwise the attempt is today's next round, with a
 * key of its own. The one-open-attempt index decides a race with the plan that this read cannot see.
 */
export async function openRetryAttempt(
  tx: Tx,
  customerId: number,
  statementId: number,
  today: string,
  now: Date,
): Promise<RetryAttempt> {
  const [row] = await rowsOf<{
    active: boolean;
    overdue: boolean;
    unpaid: number;
    failed: boolean;
    open_id: number | null;
  }>(
    tx,
    sql`select ${autopayActiveSql(sql`c`)} as active, s.overdue_at is not null as overdue,
        (select count(*)::int from ${purchases} p where p.customer_id = s.customer_id
          and p.statement_month = s.month and p.status = 'UNPAID') as unpaid,
        exists (select 1 from ${autopayAttempts} a where a.statement_id = s.id and a.status = 'FAILED') as failed,
        (select a.id from ${autopayAttempts} a where a.statement_id = s.id and a.status = 'PENDING') as open_id
      from ${statements} s join ${customers} c on c.id = s.customer_id
      where s.id = ${statementId} and s.customer_id = ${customerId}`,
  );
  if (!row) throw conflict('DEBIT_NOT_RETRYABLE', NOT_RETRYABLE.missing);
  if (row.open_id !== null) return { attemptId: row.open_id, created: false };
  if (row.overdue) throw conflict('DEBIT_NOT_RETRYABLE', NOT_RETRYABLE.overdue);
  if (!row.active) throw conflict('DEBIT_NOT_RETRYABLE', NOT_RETRYABLE.inactive);
  if (row.unpaid === 0) throw conflict('DEBIT_NOT_RETRYABLE', NOT_RETRYABLE.nothingDue);
  if (!row.failed) throw conflict('DEBIT_NOT_RETRYABLE', NOT_RETRYABLE.neverFailed);
  const [inserted] = await tx
    .insert(autopayAttempts)
    .values({
      statementId,
      customerId,
      kstDate: today,
      round: sql`(select coalesce(max(round) + 1, 0) from ${autopayAttempts}
        where statement_id = ${statementId} and kst_date = ${today})`,
      nextTryAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: autopayAttempts.id });
  if (inserted) return { attemptId: inserted.id, created: true };
  // The plan's attempt committed first: that one is the debit.
  const [open] = await tx
    .select({ id: autopayAttempts.id })
    .from(autopayAttempts)
    .where(and(eq(autopayAttempts.statementId, statementId), eq(autopayAttempts.status, 'PENDING')));
  if (!open) throw conflict('DEBIT_NOT_RETRYABLE', NOT_RETRYABLE.nothingDue);
  return { attemptId: open.id, created: false };
}
