import { VERIFICATION_RULES } from '@ohgood/contract/autopay';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { accountVerifications } from '../../db/schema';
import { withTx } from '../../db/tx';
import { recordEvent } from '../../events/record-event';
import { consentToAutopay, sendCode, testAccountNumber } from '../../test/autopay-fixture';
import { createHarness, type Harness } from '../../test/harness';
import { entriesOf, ledgerMismatches, unbalancedEntries } from '../../test/ledger-invariants';
import type { BankGateway } from '../bank/gateway';
import { createSandboxBank, sandboxDeposits, setSandboxAccount } from '../bank/sandbox-bank';
import { trialBalance } from '../ledger/trial-balance';
import { createVerification } from './verification';

/*
 * 1원 인증 deposits in the ledger (docs/rules/ledger.md, "Postings"; ADR 0240): each code's won leaves the bank
 * as verification expense, posted with the code's row; a refusal reverses it; nothing posts twice.
 */
let h: Harness;
afterEach(() => h?.close());

let accounts = 0;
async function consentingCustomer() {
  const account = testAccountNumber('61', ++accounts);
  const signed = await h.signUp({ accountName: '국민', account });
  expect((await consentToAutopay(h, signed.token)).statusCode).toBe(200);
  return { ...signed, account };
}

const codesOf = (customerId: number) =>
  h.database.db
    .select()
    .from(accountVerifications)
    .where(eq(accountVerifications.customerId, customerId))
    .orderBy(accountVerifications.id);

const WON_SENT = [
  { kind: 'BANK_CLEARING', owner: 0, amount: -1 },
  { kind: 'VERIFICATION_EXPENSE', owner: 0, amount: 1 },
];
const WON_BACK = [
  { kind: 'BANK_CLEARING', owner: 0, amount: 1 },
  { kind: 'VERIFICATION_EXPENSE', owner: 0, amount: -1 },
];

async function expectBooksAgree(expense: number) {
  expect(await unbalancedEntries(h.database.db)).toEqual([]);
  expect(await ledgerMismatches(h.database.db)).toEqual([]);
  const books = await trialBalance(h.database.db);
  expect(books.balanced).toBe(true);
  expect(books.kinds.find((row) => row.kind === 'VERIFICATION_EXPENSE')).toMatchObject({ debit: expense, credit: 0 });
}

describe('1원 인증 deposits in the ledger', () => {
  it('each code posts its won once, with its row; an event recorded again and a bank call repeated post nothing more', async () => {
    h = await createHarness();
    const c = await consentingCustomer();
    expect((await sendCode(h, c.token)).statusCode).toBe(200);
    const [first] = await codesOf(c.customerId);
    if (!first) throw new Error('no code recorded');
    expect((await entriesOf(h.database.db, 'verification-deposit', first.id)).map((e) => e.lines)).toEqual([WON_SENT]);

    // A retry of the same fact (its event recorded again) and of the bank call (the same key) move nothing.
    await withTx(h.database.db, (tx) =>
      recordEvent(
        tx,
        { type: 'account.verification_deposited', customerId: c.customerId, verificationId: first.id, amount: 1 },
        h.clock.now(),
      ),
    );
    const bank = createSandboxBank(h.database.db, h.clock);
    const again = { customerId: c.customerId, bank: '국민', account: c.account, depositorName: 'x' };
    expect(await bank.depositVerification({ ...again, idempotencyKey: `account-verification:${first.id}` })).toBe(
      'credited',
    );
    expect(await sandboxDeposits(h.database.db, '국민', c.account, 10)).toHaveLength(1);
    expect(await entriesOf(h.database.db, 'verification-deposit', first.id)).toHaveLength(1);
    await expectBooksAgree(1);

    // A new code after the resend wait is a second won, posted under its own row.
    h.clock.advance(VERIFICATION_RULES.resendSeconds * 1000 + 1000);
    expect((await sendCode(h, c.token)).statusCode).toBe(200);
    const codes = await codesOf(c.customerId);
    expect(codes.map((row) => row.status)).toEqual(['REPLACED', 'SENT']);
    expect(await sandboxDeposits(h.database.db, '국민', c.account, 10)).toHaveLength(2);
    await expectBooksAgree(2);
  });

  it('a deposit the bank refused (a closed account) is reversed once, so the expense counts only won that left', async () => {
    h = await createHarness();
    const c = await consentingCustomer();
    await setSandboxAccount(h.database.db, '국민', c.account, { state: 'closed' }, h.clock.now());
    expect((await sendCode(h, c.token)).statusCode).toBe(422);
    const [code] = await codesOf(c.customerId);
    expect(code?.status).toBe('NOT_DELIVERED');
    const id = code?.id ?? 0;
    expect((await entriesOf(h.database.db, 'verification-deposit', id)).map((e) => e.lines)).toEqual([WON_SENT]);
    expect((await entriesOf(h.database.db, 'verification-deposit-refused', id)).map((e) => e.lines)).toEqual([
      WON_BACK,
    ]);
    await expectBooksAgree(0);
  });

  it('a bank that does not answer in time: the won counts as sent, as the reconciliation books it, and posts once', async () => {
    h = await createHarness();
    const c = await consentingCustomer();
    const sandbox = createSandboxBank(h.database.db, h.clock);
    let bankAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => {
      bankAsked = resolve;
    });
    // The bank acts but its answer never comes back within the deadline.
    const silent: BankGateway = {
      ...sandbox,
      depositVerification: async (request) => {
        await sandbox.depositVerification(request);
        bankAsked();
        return new Promise(() => undefined);
      },
    };
    const verification = createVerification({
      db: h.database.db,
      clock: h.clock,
      bank: silent,
      codeKey: Buffer.from('test-code-key'),
      bankTimeoutMs: 200,
    });
    await verification.send(c.customerId);
    await asked;
    const [code] = await codesOf(c.customerId);
    expect(code?.status).toBe('SENT');
    expect(await entriesOf(h.database.db, 'verification-deposit', code?.id ?? 0)).toHaveLength(1);
    expect(await sandboxDeposits(h.database.db, '국민', c.account, 10)).toHaveLength(1);
    await expectBooksAgree(1);
  });

  it('two requests for a code at once (a double tap): one code, one deposit, one posting', async () => {
    h = await createHarness();
    const c = await consentingCustomer();
    const answers = await Promise.all([sendCode(h, c.token), sendCode(h, c.token)]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 429]);
    const codes = await codesOf(c.customerId);
    expect(codes).toHaveLength(1);
    expect(await sandboxDeposits(h.database.db, '국민', c.account, 10)).toHaveLength(1);
    await expectBooksAgree(1);
  });
});
