import { AUTOPAY_CONSENT, VERIFICATION_RULES } from '@ohgood/contract/autopay';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { customers } from '../db/schema';
import type { BankGateway } from '../modules/bank/gateway';
import { sandboxDeposits } from '../modules/bank/sandbox-bank';
import type { Harness } from './harness';

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** Turns autopay on with consent to the current words, through the API. */
export async function consentToAutopay(h: Harness, token: string) {
  return h.app.inject({
    method: 'PUT',
    url: '/api/payment/autopay',
    headers: auth(token),
    payload: { autopay: true, consentVersion: AUTOPAY_CONSENT.version },
  });
}

/** Asks for a 1원 인증 code through the API. */
export const sendCode = (h: Harness, token: string) =>
  h.app.inject({ method: 'POST', url: '/api/payment/autopay/verification', headers: auth(token) });

/** Types a code through the API. */
export const confirmCode = (h: Harness, token: string, code: string) =>
  h.app.inject({
    method: 'POST',
    url: '/api/payment/autopay/verification/confirm',
    headers: auth(token),
    payload: { code },
  });

/** The code of the newest 1원 deposit to the customer's linked account, read as the account holder would. */
export async function depositedCode(h: Harness, customerId: number): Promise<string> {
  const [customer] = await h.database.db
    .select({ bank: customers.accountName, account: customers.account })
    .from(customers)
    .where(eq(customers.id, customerId));
  if (!customer) throw new Error(`no customer ${customerId}`);
  const [newest] = await sandboxDeposits(h.database.db, customer.bank, customer.account, 1);
  if (!newest) throw new Error('no 1원 deposit to the account');
  return newest.depositorName.slice(VERIFICATION_RULES.depositorPrefix.length);
}

/**
 * The whole way to a debited autopay, as a customer takes it: consent, a 1원 deposit, the code typed back.
 * Each customer verifying this way needs an account of their own (one account, one owner).
 */
export async function verifyAutopay(h: Harness, customer: { token: string; customerId: number }) {
  expect((await consentToAutopay(h, customer.token)).statusCode).toBe(200);
  expect((await sendCode(h, customer.token)).statusCode).toBe(200);
  const confirmed = await confirmCode(h, customer.token, await depositedCode(h, customer.customerId));
  expect(confirmed.json().data.state).toBe('on');
}

/**
 * A bank in front of which this process "dies": the bank debits, then the call throws before its answer can
 * be recorded (what a crash between the bank call and the settlement leaves).
 */
export function dyingAfterDebit(bank: BankGateway): BankGateway {
  return {
    ...bank,
    async debit(request) {
      await bank.debit(request);
      throw new Error('process killed');
    },
  };
}

/**
 * An eleven-digit account number no other test run holds (one account, one owner): `prefix` marks the test
 * file, `serial` counts within it, and the last six digits come from the clock, zero-padded so the number
 * keeps its length.
 */
export function testAccountNumber(prefix: string, serial: number): string {
  return `${prefix}${String(serial).padStart(5 - prefix.length, '0')}${String(Date.now() % 1_000_000).padStart(6, '0')}`;
}
