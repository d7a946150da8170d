import { AUTOPAY_RULES } from '@ohgood/contract/autopay';
import type { Db } from '../../db/client';
import { type Tx, withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { type BankGateway, withinDeadline } from '../bank/gateway';
import { dueDate } from '../bills/statements';
import { type Claim, claimNext, recordSurplusRefund, settleDebit } from './autopay-actions';
import {
  type Attempt,
  insertPlannedAttempts,
  owedSurplusIds,
  owedSurplusOf,
  planCandidates,
} from './autopay-repository';

/*
 * The autopay job, read top to bottom: the daily plan, then each debit — claim, the bank call, settle, give back
 * a surplus. The transactions on either side of the bank call are in `autopay-actions.ts`, and the SQL of both
 * in `autopay-repository.ts`.
 */

/**
 * The daily plan (docs/rules/bills-and-grades.md#B16), run once per KST date by the job runner: one PENDING
 * attempt for every statement that autopay should debit today — its customer has autopay on (switched on,
 * consent in force and the account verified by 1원 인증, #B21–#B23; a pending customer is never debited), it still has
 * unpaid lines, it is not overdue and today is on or after its due date (the 15th; for a statement the
 * customer extended, the extended date). An automatically extended statement keeps its 15th, so a failed
 * debit is tried again every day until the statement becomes overdue. The (statement, day) key makes the
 * plan idempotent; a statement whose earlier attempt is still open (its bank answer may be lost) gets none,
 * so its next debit reuses that attempt's idempotency key and can never take the money twice, and neither does
 * one whose debit failed within `AUTOPAY_RULES.failedRestHours` (a catch-up's missed day and today's run).
 */
export async function planAutopay(tx: Tx, today: string, at: Date): Promise<{ planned: number }> {
  const failedSince = new Date(at.getTime() - AUTOPAY_RULES.failedRestHours * 3_600_000);
  const candidates = await planCandidates(tx, today.slice(0, 7), failedSince);
  const due = candidates.filter((row) => dueDate(row.month, row.extension === 'MANUAL') <= today);
  if (due.length === 0) return { planned: 0 };
  return { planned: await insertPlannedAttempts(tx, due, today, at) };
}

export interface AutopayRunResult {
  paid: number;
  failed: number;
  retrying: number;
  skipped: number;
}

export interface AutopayOptions {
  /** A bank call past this is `unknown` (AUTOPAY_RULES.bankTimeoutSeconds by default). */
  bankTimeoutMs?: number;
  /** How long a claim waits for a customer's row held by another transaction (AUTOPAY_RULES). */
  customerLockWaitMs?: number;
}

/**
 * Debits every attempt that is due (`next_try_at` passed) and not held by another instance, one at a time:
 * claim (a lease, `FOR UPDATE SKIP LOCKED`, under the customer's lock, marking the lines as collected by it)
 * → ask the bank with the attempt's idempotency key, within a deadline → settle in one transaction (the
 * repayment, exactly as an early payment records it, and the attempt's outcome and event) → give back what
 * the bank took for lines paid meanwhile. The bank call sits between two transactions, as with any external
 * bank: if this process dies after the bank answered, the attempt stays PENDING, its lines stay collected by
 * it, and once its lease ends it is asked again with the same key; the bank answers what it did the first
 * time, so the repayment is recorded once and the money moved once (docs/rules/bills-and-grades.md#B17–#B18).
 */
export async function runAutopay(
  db: Db,
  bank: BankGateway,
  clock: Clock,
  options: AutopayOptions = {},
): Promise<AutopayRunResult> {
  const timeoutMs = options.bankTimeoutMs ?? AUTOPAY_RULES.bankTimeoutSeconds * 1000;
  const lockWaitMs = options.customerLockWaitMs ?? AUTOPAY_RULES.customerLockWaitMs;
  const result: AutopayRunResult = { paid: 0, failed: 0, retrying: 0, skipped: 0 };
  await refundOwedSurpluses(db, bank, clock, timeoutMs);
  for (;;) {
    const claimed = await claimNext(db, clock.now(), lockWaitMs);
    if (!claimed) break;
    result[await debitClaimed(db, bank, clock, claimed, timeoutMs)] += 1;
  }
  return result;
}

/** What became of one claimed attempt. */
type ClaimOutcome = keyof AutopayRunResult;

/** Asks the bank for a claimed attempt's debit with its key, settles the answer and gives back any surplus. */
async function debitClaimed(
  db: Db,
  bank: BankGateway,
  clock: Clock,
  claimed: Claim,
  timeoutMs: number,
): Promise<ClaimOutcome> {
  if ('skipped' in claimed) return 'skipped';
  if ('busy' in claimed) return 'retrying';
  const { attempt, bankCode, account } = claimed;
  const answer = await withinDeadline(
    bank.debit({
      customerId: attempt.customerId,
      bank: bankCode,
      account,
      amount: attempt.amount ?? 0,
      idempotencyKey: idempotencyKeyOf(attempt),
    }),
    timeoutMs,
  );
  const outcome = await withTx(db, (tx) => settleDebit(tx, attempt, answer, clock.now()));
  if (outcome.surplus > 0) await refundSurplus(db, bank, clock, attempt.id, timeoutMs);
  return outcome.outcome;
}

/**
 * Debits one attempt now, exactly as the run would (a staff retry): the same claim, key, settlement and
 * surplus refund. `undefined` when it is not claimable now: another instance holds it (its lease or its
 * row), or it is no longer PENDING; whoever holds it finishes it.
 */
export async function debitAttemptNow(
  db: Db,
  bank: BankGateway,
  clock: Clock,
  attemptId: number,
  options: AutopayOptions = {},
): Promise<ClaimOutcome | undefined> {
  const timeoutMs = options.bankTimeoutMs ?? AUTOPAY_RULES.bankTimeoutSeconds * 1000;
  const lockWaitMs = options.customerLockWaitMs ?? AUTOPAY_RULES.customerLockWaitMs;
  const claimed = await claimNext(db, clock.now(), lockWaitMs, attemptId);
  return claimed ? debitClaimed(db, bank, clock, claimed, timeoutMs) : undefined;
}

/**
 * The bank key of an attempt: one per (statement, KST day, round). The plan's round 0 keeps the key it always
 * had; a staff retry on the same day (round 1, 2, …) is a new debit request, so it needs a key of its own.
 */
export const idempotencyKeyOf = (attempt: Pick<Attempt, 'statementId' | 'kstDate' | 'round'>) =>
  `autopay:${attempt.statementId}:${attempt.kstDate}${attempt.round > 0 ? `:${attempt.round}` : ''}`;

/** The bank key of an attempt's surplus refund: one per attempt, whoever asks and however often. */
export const surplusKeyOf = (attempt: Pick<Attempt, 'id'>) => `autopay-surplus:${attempt.id}`;

/**
 * Gives an attempt's surplus back to the linked account through the bank's credit, under the attempt's own
 * key, and records it with its notice. A credit that fails or does not answer in time stays owed and is asked
 * again, with the same key, at the start of the next run.
 */
async function refundSurplus(db: Db, bank: BankGateway, clock: Clock, attemptId: number, timeoutMs: number) {
  const owed = await owedSurplusOf(db, attemptId);
  if (!owed) return;
  const { attempt } = owed;
  const answer = await withinDeadline(
    bank.credit({
      customerId: attempt.customerId,
      bank: owed.bankCode,
      account: owed.account,
      amount: attempt.surplus,
      idempotencyKey: surplusKeyOf(attempt),
    }),
    timeoutMs,
  );
  if (answer !== 'credited') return;
  await withTx(db, (tx) => recordSurplusRefund(tx, owed, clock.now()));
}

/** Surpluses still owed from earlier runs (a credit that failed, or a process that died before it). */
async function refundOwedSurpluses(db: Db, bank: BankGateway, clock: Clock, timeoutMs: number) {
  for (const id of await owedSurplusIds(db)) await refundSurplus(db, bank, clock, id, timeoutMs);
}
