import type { DebitResult } from '@ohgood/contract/autopay';

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
 * The bank the product debits. The built-in default is the sandbox bank (sandbox-bank.ts); a real bank's
 * adapter implements this interface and is handed to `buildApp`/the scheduler in its place. `unavailable`
 * means the bank did not act: the caller may retry with the same key.
 */
export interface BankGateway {
  debit(request: DebitRequest): Promise<DebitResult>;
}
