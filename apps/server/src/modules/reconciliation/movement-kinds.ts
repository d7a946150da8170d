import type { MovementDirection } from '@ohgood/contract/reconciliation';
import { and, eq, gte, isNotNull, lt, ne } from 'drizzle-orm';
import { accountVerifications, autopayAttempts, settlements } from '../../db/schema';
import type { Executor } from '../../db/tx';
import { idempotencyKeyOf, surplusKeyOf } from '../autopay/autopay-job';
import { verificationKeyOf } from '../autopay/verification';
import { VERIFICATION_DEPOSIT } from '../bank/gateway';
import { payoutKeyOf } from '../settlements/payouts';

/** One entry of our books that says the bank moved money: its reference (the key we sent), amount and time. */
export interface BookEntry {
  reference: string;
  amount: number;
  at: Date;
}

/**
 * A kind of bank movement the product makes: its direction, the prefix of the idempotency keys it sends (so a
 * bank line is named even when our books lack it), and where our books record it.
 */
export interface MovementKind {
  kind: string;
  direction: MovementDirection;
  prefix: string;
  /** The book entries booked in [from, to). */
  books(executor: Executor, from: Date, to: Date): Promise<BookEntry[]>;
}

/** Autopay debits the bank answered `paid`: the attempt holds the amount it asked for under its key. */
async function autopayDebits(executor: Executor, from: Date, to: Date): Promise<BookEntry[]> {
  const rows = await executor
    .select()
    .from(autopayAttempts)
    .where(
      and(
        eq(autopayAttempts.status, 'PAID'),
        gte(autopayAttempts.finishedAt, from),
        lt(autopayAttempts.finishedAt, to),
      ),
    );
  return rows.map((row) => ({ reference: idempotencyKeyOf(row), amount: row.amount ?? 0, at: row.finishedAt ?? to }));
}

/** Surpluses given back: the attempt records when its credit was made, under the attempt's own key. */
async function surplusRefunds(executor: Executor, from: Date, to: Date): Promise<BookEntry[]> {
  const rows = await executor
    .select()
    .from(autopayAttempts)
    .where(
      and(
        isNotNull(autopayAttempts.surplusRefundedAt),
        gte(autopayAttempts.surplusRefundedAt, from),
        lt(autopayAttempts.surplusRefundedAt, to),
      ),
    );
  return rows.map((row) => ({ reference: surplusKeyOf(row), amount: row.surplus, at: row.surplusRefundedAt ?? to }));
}

/**
 * 1원 인증 deposits: every code the product sent, unless the bank refused its deposit (`NOT_DELIVERED`). A
 * deposit whose answer never came (`unknown`) is still booked as sent, so a bank that did not act shows here.
 */
async function verificationDeposits(executor: Executor, from: Date, to: Date): Promise<BookEntry[]> {
  const rows = await executor
    .select({ id: accountVerifications.id, sentAt: accountVerifications.sentAt })
    .from(accountVerifications)
    .where(
      and(
        ne(accountVerifications.status, 'NOT_DELIVERED'),
        gte(accountVerifications.sentAt, from),
        lt(accountVerifications.sentAt, to),
      ),
    );
  return rows.map((row) => ({ reference: verificationKeyOf(row.id), amount: VERIFICATION_DEPOSIT, at: row.sentAt }));
}

/** Settlement payouts to merchants: each PAID settlement, under its own key (docs/rules/settlement.md#M5). */
async function settlementPayouts(executor: Executor, from: Date, to: Date): Promise<BookEntry[]> {
  const rows = await executor
    .select({ id: settlements.id, payout: settlements.payout, paidAt: settlements.paidAt })
    .from(settlements)
    .where(and(isNotNull(settlements.paidAt), gte(settlements.paidAt, from), lt(settlements.paidAt, to)));
  return rows.map((row) => ({ reference: payoutKeyOf(row.id), amount: row.payout, at: row.paidAt ?? to }));
}

/**
 * Every kind of bank movement the product makes (docs/rules/bills-and-grades.md#B20). A new kind is one entry
 * here, with the read of where its books record it.
 */
export const MOVEMENT_KINDS: readonly MovementKind[] = [
  { kind: 'autopay_debit', direction: 'debit', prefix: 'autopay:', books: autopayDebits },
  { kind: 'surplus_refund', direction: 'credit', prefix: 'autopay-surplus:', books: surplusRefunds },
  { kind: 'verification_deposit', direction: 'credit', prefix: 'account-verification:', books: verificationDeposits },
  { kind: 'settlement_payout', direction: 'credit', prefix: 'settlement-payout:', books: settlementPayouts },
];

/** The kind a bank reference belongs to, by its prefix; `unknown` for a reference the product never sends. */
export function kindOf(reference: string, direction: MovementDirection): string {
  return MOVEMENT_KINDS.find((k) => k.direction === direction && reference.startsWith(k.prefix))?.kind ?? 'unknown';
}
