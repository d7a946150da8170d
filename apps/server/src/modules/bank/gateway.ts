import type { DebitResult } from '@ohgood/contract/autopay';
import type { MovementDirection } from '@ohgood/contract/reconciliation';

/** One debit of a customer's linked account (docs/rules/bills-and-grades.md#B16). */
export interface DebitRequest {
  customerId: number;
  /** The bank code stored at sign-up ('국민', '토스', …). */
  bank: string;
  account: string;
  amount: number;
  /**
   * The same key always gets the same answer and moves money at most once: a caller that lost the answer
   * (a crash, a timeout) asks again with the same key.
   */
  idempotencyKey: string;
}

/**
 * One credit: money the product gives back to a customer's linked account (docs/rules/bills-and-grades.md#B18)
 * or pays to a merchant's settlement account (docs/rules/settlement.md#M5). Names whose account it is.
 */
export interface CreditRequest {
  customerId?: number;
  merchantId?: number;
  bank: string;
  account: string;
  amount: number;
  /** As for a debit: the same key always gets the same answer and moves money at most once. */
  idempotencyKey: string;
}

/** What a 1원 인증 deposit puts in the account, at any bank. */
export const VERIFICATION_DEPOSIT = 1;

/**
 * 1원 인증 (docs/rules/bills-and-grades.md#B22): 1원 to the customer's linked account whose depositor name
 * carries the code, so only someone who sees the account's history can read it.
 */
export interface VerificationDepositRequest {
  customerId: number;
  bank: string;
  account: string;
  /** What the account's history shows as the sender, e.g. '오굿1234'. */
  depositorName: string;
  /** As for a debit: the same key always gets the same answer and moves money at most once. */
  idempotencyKey: string;
}

/** `unavailable`: the bank did not act, the caller may retry with the same key. */
export type CreditResult = 'credited' | 'account_closed' | 'unavailable';

/**
 * The bank the product debits and credits. The built-in default is the sandbox bank (sandbox-bank.ts); a real bank's
 * adapter implements this interface and is handed to `buildApp`/the scheduler in its place. `unavailable`
 * means the bank did not act: the caller may retry with the same key.
 */
export interface BankGateway {
  debit(request: DebitRequest): Promise<DebitResult>;
  credit(request: CreditRequest): Promise<CreditResult>;
  /** Deposits 1원 named by the request's depositor name (1원 인증). */
  depositVerification(request: VerificationDepositRequest): Promise<CreditResult>;
}

/** One line of the bank's statement: money it actually moved for us (a refused debit is not a movement). */
export interface BankMovement {
  direction: MovementDirection;
  /** The idempotency key the product sent with the call: the bank's reference for the movement. */
  reference: string;
  amount: number;
  /** When the bank booked it. */
  at: Date;
}

/**
 * The bank's own record of what it moved, read by the daily reconciliation (docs/rules/bills-and-grades.md#B20).
 * The sandbox bank reads its tables; a real bank's adapter reads its statement file or API for the range.
 */
export interface BankStatements {
  /** Every movement booked in [from, to), in booking order. */
  movements(from: Date, to: Date): Promise<BankMovement[]>;
}

/**
 * A bank call that has not answered within `ms` is `unknown`: the caller records that it does not know and
 * asks again later with the same idempotency key, never a new one (the bank may have acted). The call itself
 * is left to finish or fail on its own; its late answer is not read.
 */
export async function withinDeadline<T>(call: Promise<T>, ms: number): Promise<T | 'unknown'> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'unknown'>((resolve) => {
    timer = setTimeout(() => resolve('unknown'), ms);
  });
  try {
    return await Promise.race([call, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
