import { z } from 'zod';

/*
 * The double-entry ledger's accounts (docs/rules/ledger.md). A line's amount is signed won: debit positive,
 * credit negative. Assets and expenses (receivables, bank clearing, points and verification expense) hold a debit
 * balance; liabilities, revenue and equity (payables, points liability, fee revenue, opening balance) a credit.
 */
export const LEDGER_ACCOUNT_KINDS = [
  /** What one customer owes on the bills: their unpaid lines. Owner: the customer. */
  'CUSTOMER_RECEIVABLE',
  /** What the product owes one customer back: repaid lines refunded, autopay surpluses. Owner: the customer. */
  'CUSTOMER_PAYABLE',
  /** What the product owes one merchant: sales − refunds − fees − payouts. Owner: the merchant. */
  'MERCHANT_PAYABLE',
  /** Every customer's points, one control account (the point ledger holds each customer's share). */
  'POINTS_LIABILITY',
  /** Points the product gave (earned on purchases, check-in, watching), less those taken back. */
  'POINTS_EXPENSE',
  /** The product's fees on merchants' sales. */
  'FEE_REVENUE',
  /** Won that moved through the bank: repayments and debits in, refunds and payouts out. */
  'BANK_CLEARING',
  /** The balancing side of the opening entry of a database that held money facts before the ledger. */
  'OPENING_BALANCE',
  /** The 1원 인증 deposits the product sent to prove a customer owns an account (its cost, never paid back). */
  'VERIFICATION_EXPENSE',
] as const;
export type LedgerAccountKind = (typeof LEDGER_ACCOUNT_KINDS)[number];

/** One kind's accounts in the trial balance: debit balances and credit balances summed apart, in won. */
export const trialBalanceRow = z.object({
  kind: z.enum(LEDGER_ACCOUNT_KINDS),
  accounts: z.number().int().nonnegative(),
  debit: z.number().int().nonnegative(),
  credit: z.number().int().nonnegative(),
});
export const trialBalanceResponse = z.object({
  /** Every kind, in the order of LEDGER_ACCOUNT_KINDS, with zeros for a kind with no account yet. */
  kinds: z.array(trialBalanceRow),
  totalDebit: z.number().int().nonnegative(),
  totalCredit: z.number().int().nonnegative(),
  entries: z.number().int().nonnegative(),
  /** Debits equal credits and no entry's lines sum to anything but zero. */
  balanced: z.boolean(),
});
export type TrialBalance = z.infer<typeof trialBalanceResponse>;
