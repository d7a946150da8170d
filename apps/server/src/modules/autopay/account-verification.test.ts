import { AUTOPAY_CONSENT, AUTOPAY_MSG, VERIFICATION_RULES } from '@ohgood/contract/autopay';
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { accountVerifications, autopayAttempts, autopayConsents, repayments } from '../../db/schema';
import { runJob } from '../../jobs/runner';
import { testConfig } from '../../lib/config';
import {
  confirmCode,
  consentToAutopay,
  depositedCode,
  sendCode,
  testAccountNumber,
  verifyAutopay,
} from '../../test/autopay-fixture';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { kstAt, noticesAfterDispatch } from '../../test/notice-helpers';
import { pay } from '../../test/payment-helpers';
import { createSandboxBank, sandboxAccount, sandboxDeposits, setSandboxAccount } from '../bank/sandbox-bank';
import { runAutopay } from './autopay-job';

let h: Harness;
afterEach(() => h?.close());

let accounts = 0;
/** A customer with a bank account of their own (test accounts must not collide: one account, one owner). */
async function customer(account = testAccountNumber('5', ++accounts)) {
  const signed = await h.signUp({ accountName: '국민', account });
  return { ...signed, account };
}

const setting = async (token: string) =>
  (await h.app.inject({ method: 'GET', url: '/api/payment/autopay', headers: bearer(token) })).json().data;

/** A code other than `code` (a wrong guess). */
const otherThan = (code: string) => String((Number(code) + 1) % 10_000).padStart(4, '0');

describe('consent to autopay (docs/rules/bills-and-grades.md#B21)', () => {
  it('a new customer is pending consent; turning on records the words version on the app clock, off the withdrawal', async () => {
    h = await createHarness({ now: '2026-11-22T03:00:00Z' });
    const c = await customer();
    expect(await setting(c.token)).toMatchObject({ autopay: true, state: 'pending', pendingReason: 'consent' });

    const noConsent = await h.app.inject({
      method: 'PUT',
      url: '/api/payment/autopay',
      headers: bearer(c.token),
      payload: { autopay: true },
    });
    expect(noConsent.statusCode).toBe(400);
    expect(noConsent.json()).toMatchObject({ code: 'AUTOPAY_CONSENT_REQUIRED', message: AUTOPAY_MSG.consentRequired });
    const outdated = await h.app.inject({
      method: 'PUT',
      url: '/api/payment/autopay',
      headers: bearer(c.token),
      payload: { autopay: true, consentVersion: '2020-01-v0' },
    });
    expect(outdated.statusCode).toBe(409);

    const on = await consentToAutopay(h, c.token);
    expect(on.json()).toMatchObject({
      message: AUTOPAY_MSG.consented,
      data: { state: 'pending', pendingReason: 'verification', consentVersion: AUTOPAY_CONSENT.version },
    });
    h.clock.advance(3_600_000);
    await h.app.inject({
      method: 'PUT',
      url: '/api/payment/autopay',
      headers: bearer(c.token),
      payload: { autopay: false },
    });
    const rows = await h.database.db.select().from(autopayConsents).where(eq(autopayConsents.customerId, c.customerId));
    expect(
      rows.map(({ action, bank, account, wordingVersion, at }) => ({ action, bank, account, wordingVersion, at })),
    ).toEqual([
      {
        action: 'GRANTED',
        bank: '국민',
        account: c.account,
        wordingVersion: AUTOPAY_CONSENT.version,
        at: new Date('2026-11-22T03:00:00Z'),
      },
      {
        action: 'WITHDRAWN',
        bank: '국민',
        account: c.account,
        wordingVersion: AUTOPAY_CONSENT.version,
        at: new Date('2026-11-22T04:00:00Z'),
      },
    ]);
    expect(await setting(c.token)).toMatchObject({ autopay: false, state: 'off', consentVersion: null });
    // The record is append-only: the database refuses to change or remove it.
    await expect(
      h.database.db
        .update(autopayConsents)
        .set({ action: 'GRANTED' })
        .where(eq(autopayConsents.customerId, c.customerId)),
    ).rejects.toThrow();
    await expect(
      h.database.db.delete(autopayConsents).where(eq(autopayConsents.customerId, c.customerId)),
    ).rejects.toThrow();
  });
});

describe('1원 인증 (docs/rules/bills-and-grades.md#B22)', () => {
  it('the right code: 1원 arrives named 오굿 + 4 digits, only its hash is stored, and autopay is on', async () => {
    h = await createHarness();
    const c = await customer();
    await consentToAutopay(h, c.token);
    const before = (await sandboxAccount(h.database.db, '국민', c.account)).balance;
    const sent = await sendCode(h, c.token);
    expect(sent.statusCode).toBe(200);
    expect(sent.json().data.verification).toMatchObject({ triesLeft: VERIFICATION_RULES.maxTries });
    const [deposit] = await sandboxDeposits(h.database.db, '국민', c.account);
    expect(deposit?.amount).toBe(1);
    expect(deposit?.depositorName).toMatch(/^오굿[0-9]{4}$/);
    expect((await sandboxAccount(h.database.db, '국민', c.account)).balance).toBe(before + 1);
    const code = await depositedCode(h, c.customerId);
    const [stored] = await h.database.db
      .select()
      .from(accountVerifications)
      .where(eq(accountVerifications.customerId, c.customerId));
    expect(stored?.codeHash).not.toContain(code);
    expect(stored?.codeHash).toMatch(/^[0-9a-f]{64}$/);

    const confirmed = await confirmCode(h, c.token, code);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({
      message: AUTOPAY_MSG.verified,
      data: { state: 'on', verified: true, verification: null },
    });
  });

  it('wrong codes say in Korean how many tries are left; the fifth locks the code, and only a new code works', async () => {
    h = await createHarness();
    const c = await customer();
    await consentToAutopay(h, c.token);
    await sendCode(h, c.token);
    const code = await depositedCode(h, c.customerId);
    for (const left of [4, 3, 2, 1]) {
      const wrong = await confirmCode(h, c.token, otherThan(code));
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({
        code: 'VERIFICATION_CODE_WRONG',
        message: `인증 코드가 맞지 않아요. ${left}번 더 입력할 수 있어요.`,
      });
    }
    const fifth = await confirmCode(h, c.token, otherThan(code));
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json()).toMatchObject({ code: 'VERIFICATION_LOCKED', message: AUTOPAY_MSG.codeLocked });
    // The right code no longer helps: the code is used up.
    expect((await confirmCode(h, c.token, code)).json().code).toBe('VERIFICATION_LOCKED');
    expect(await setting(c.token)).toMatchObject({
      state: 'pending',
      pendingReason: 'verification',
      verification: null,
    });

    h.clock.advance(VERIFICATION_RULES.resendSeconds * 1000);
    expect((await sendCode(h, c.token)).statusCode).toBe(200);
    expect((await confirmCode(h, c.token, await depositedCode(h, c.customerId))).statusCode).toBe(200);
  });

  it('guesses sent all at once are counted one by one: at most the allowed tries are checked', async () => {
    h = await createHarness();
    const c = await customer();
    await consentToAutopay(h, c.token);
    await sendCode(h, c.token);
    const code = await depositedCode(h, c.customerId);
    const answers = await Promise.all(Array.from({ length: 12 }, () => confirmCode(h, c.token, otherThan(code))));
    expect(answers.filter((a) => a.statusCode === 400)).toHaveLength(VERIFICATION_RULES.maxTries - 1);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(12 - (VERIFICATION_RULES.maxTries - 1));
    const [row] = await h.database.db
      .select()
      .from(accountVerifications)
      .where(eq(accountVerifications.customerId, c.customerId));
    expect(row).toMatchObject({ tries: VERIFICATION_RULES.maxTries, status: 'LOCKED' });
  });

  it('a code expires after 10 minutes on the app clock', async () => {
    h = await createHarness();
    const c = await customer();
    await consentToAutopay(h, c.token);
    await sendCode(h, c.token);
    const code = await depositedCode(h, c.customerId);
    h.clock.advance(VERIFICATION_RULES.codeMinutes * 60_000);
    const late = await confirmCode(h, c.token, code);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'VERIFICATION_EXPIRED', message: AUTOPAY_MSG.codeExpired });
    expect(await setting(c.token)).toMatchObject({ state: 'pending', verification: null });
  });

  it('new codes are rate-limited: one a minute, five a day; a new code replaces the old one', async () => {
    h = await createHarness();
    const c = await customer();
    await consentToAutopay(h, c.token);
    expect((await sendCode(h, c.token)).statusCode).toBe(200);
    const first = await depositedCode(h, c.customerId);
    const again = await sendCode(h, c.token);
    expect(again.statusCode).toBe(429);
    expect(again.json().code).toBe('VERIFICATION_TOO_SOON');
    for (let n = 2; n <= VERIFICATION_RULES.codesPerDay; n++) {
      h.clock.advance(VERIFICATION_RULES.resendSeconds * 1000);
      expect((await sendCode(h, c.token)).statusCode).toBe(200);
    }
    h.clock.advance(VERIFICATION_RULES.resendSeconds * 1000);
    const sixth = await sendCode(h, c.token);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toMatchObject({ code: 'VERIFICATION_TOO_MANY', message: AUTOPAY_MSG.tooManyCodes });
    const latest = await depositedCode(h, c.customerId);
    if (latest !== first) expect((await confirmCode(h, c.token, first)).json().code).toBe('VERIFICATION_CODE_WRONG');
    expect((await confirmCode(h, c.token, latest)).statusCode).toBe(200);
  });

  it('a restart between sending and typing the code: a new instance checks it, tries counted as before', async () => {
    h = await createHarness();
    const c = await customer();
    await consentToAutopay(h, c.token);
    await sendCode(h, c.token);
    const code = await depositedCode(h, c.customerId);
    expect((await confirmCode(h, c.token, otherThan(code))).statusCode).toBe(400);
    const restarted = await buildApp({
      config: testConfig(),
      database: h.database,
      clock: h.clock,
      jwtSecret: 'test-secret-test-secret-test-secret-1234',
    });
    await restarted.ready();
    try {
      const confirm = (typed: string) =>
        restarted.inject({
          method: 'POST',
          url: '/api/payment/autopay/verification/confirm',
          headers: bearer(c.token),
          payload: { code: typed },
        });
      expect((await confirm(otherThan(code))).json().message).toBe(AUTOPAY_MSG.codeWrong(3));
      expect((await confirm(code)).json().data.state).toBe('on');
    } finally {
      await restarted.close();
    }
  });

  it('a bank that cannot take the 1원 deposit (a closed account) is told, and the code is not open', async () => {
    h = await createHarness();
    const c = await customer();
    await consentToAutopay(h, c.token);
    await setSandboxAccount(h.database.db, '국민', c.account, { state: 'closed' }, h.clock.now());
    const refused = await sendCode(h, c.token);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'BANK_DEPOSIT_FAILED', message: AUTOPAY_MSG.depositFailed });
    expect(await setting(c.token)).toMatchObject({ state: 'pending', verification: null });
    const [row] = await h.database.db
      .select()
      .from(accountVerifications)
      .where(eq(accountVerifications.customerId, c.customerId));
    expect(row?.status).toBe('NOT_DELIVERED');
  });

  it('a code cannot be asked for before consent', async () => {
    h = await createHarness();
    const c = await customer();
    const refused = await sendCode(h, c.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('AUTOPAY_CONSENT_REQUIRED');
    expect(await sandboxDeposits(h.database.db, '국민', c.account)).toEqual([]);
  });
});

describe('one bank account, one customer (docs/rules/bills-and-grades.md#B23)', () => {
  it('a second customer with an account already verified is refused with a code, before any deposit', async () => {
    h = await createHarness();
    const first = await customer();
    await verifyAutopay(h, first);
    const second = await customer(first.account);
    await consentToAutopay(h, second.token);
    const refused = await sendCode(h, second.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'ACCOUNT_VERIFIED_BY_OTHER', message: AUTOPAY_MSG.accountTaken });
    expect(await sandboxDeposits(h.database.db, '국민', first.account)).toHaveLength(1);
  });

  it('two customers confirming right codes for one account at once: exactly one wins', async () => {
    h = await createHarness();
    const a = await customer();
    const b = await customer(a.account);
    await consentToAutopay(h, a.token);
    await consentToAutopay(h, b.token);
    await sendCode(h, a.token);
    const codeA = await depositedCode(h, a.customerId);
    await sendCode(h, b.token);
    const codeB = await depositedCode(h, b.customerId);
    const answers = await Promise.all([confirmCode(h, a.token, codeA), confirmCode(h, b.token, codeB)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.statusCode === 409)?.json()).toMatchObject({ code: 'ACCOUNT_VERIFIED_BY_OTHER' });
    const owners = await h.database.db
      .select({ customerId: accountVerifications.customerId })
      .from(accountVerifications)
      .where(eq(accountVerifications.status, 'VERIFIED'));
    expect(owners).toHaveLength(1);
    // The database itself holds the rule, whatever the code does.
    await expect(
      h.database.db.execute(
        sql`update account_verifications set status = 'VERIFIED' where customer_id in (${a.customerId}, ${b.customerId})`,
      ),
    ).rejects.toThrow();
  });

  it('a hostile customer can neither confirm with another’s code nor read another’s deposits', async () => {
    h = await createHarness({ config: { SANDBOX_BANK_INBOX: true } });
    const victim = await customer();
    const hostile = await customer();
    await consentToAutopay(h, victim.token);
    await sendCode(h, victim.token);
    const victimCode = await depositedCode(h, victim.customerId);
    // No code of their own: the victim's code verifies nothing for them.
    expect((await confirmCode(h, hostile.token, victimCode)).json().code).toBe('VERIFICATION_NOT_STARTED');
    await consentToAutopay(h, hostile.token);
    await sendCode(h, hostile.token);
    const hostileCode = await depositedCode(h, hostile.customerId);
    if (hostileCode !== victimCode) expect((await confirmCode(h, hostile.token, victimCode)).statusCode).toBe(400);
    // The sandbox "bank app" shows the caller's own account only.
    const inbox = await h.app.inject({
      method: 'GET',
      url: '/api/payment/autopay/sandbox-deposits',
      headers: bearer(hostile.token),
    });
    expect(inbox.json().data.map((d: { depositorName: string }) => d.depositorName)).toEqual([`오굿${hostileCode}`]);
    // The victim's code still works for the victim, and only for them.
    expect((await confirmCode(h, victim.token, victimCode)).json().data.state).toBe('on');
    expect((await setting(hostile.token)).verified).toBe(false);
  });

  it('the sandbox bank app is not served unless switched on', async () => {
    h = await createHarness();
    const c = await customer();
    const inbox = await h.app.inject({
      method: 'GET',
      url: '/api/payment/autopay/sandbox-deposits',
      headers: bearer(c.token),
    });
    expect(inbox.statusCode).toBe(404);
  });
});

describe('autopay debits only verified customers (docs/rules/bills-and-grades.md#B16, #B22)', () => {
  it('a pending customer is not debited on the 15th; once verified, the next day’s run debits', async () => {
    h = await createHarness({ now: kstAt('2026-11-10').toISOString() });
    const c = await customer();
    const merchant = await createMerchant(h.database.db);
    expect((await pay(h, merchant.headers, c.token, 40_000)).res.statusCode).toBe(200);
    await setSandboxAccount(h.database.db, '국민', c.account, { balance: 100_000 }, h.clock.now());
    await consentToAutopay(h, c.token); // consent given, 1원 인증 not done

    const debitOn = async (date: string) => {
      h.clock.set(kstAt(date, 0, 5));
      await runJob(h.database.db, h.clock, 'statement-issue');
      h.clock.set(kstAt(date, 10, 0));
      await runJob(h.database.db, h.clock, 'autopay');
      return runAutopay(h.database.db, createSandboxBank(h.database.db, h.clock), h.clock);
    };
    expect(await debitOn('2026-12-15')).toEqual({ paid: 0, failed: 0, retrying: 0, skipped: 0 });
    expect(
      await h.database.db.select().from(autopayAttempts).where(eq(autopayAttempts.customerId, c.customerId)),
    ).toEqual([]);
    expect((await sandboxAccount(h.database.db, '국민', c.account)).balance).toBe(100_000);
    // Nothing told them a debit was coming: the statement asks them to pay.
    const issued = (await noticesAfterDispatch(h, c.customerId)).find((n) => n.kind === 'statement_issued');
    expect(issued?.body).toContain('납부하기에서 납부해 주세요');
    // A month on the app clock: the sign-up token has expired, so the customer logs in again.
    const login = await h.app.inject({
      method: 'POST',
      url: '/auth',
      payload: { emailId: c.emailId, pwd: 'password1!' },
    });
    const token = login.json().accessToken as string;
    expect(await setting(token)).toMatchObject({ state: 'pending', pendingReason: 'verification' });

    h.clock.set(kstAt('2026-12-15', 12, 0));
    await sendCode(h, token);
    await confirmCode(h, token, await depositedCode(h, c.customerId));
    expect(await debitOn('2026-12-16')).toMatchObject({ paid: 1 });
    const paid = await h.database.db.select().from(repayments).where(eq(repayments.customerId, c.customerId));
    expect(paid.map((r) => r.amount)).toEqual([40_000]);
    expect((await sandboxAccount(h.database.db, '국민', c.account)).balance).toBe(100_000 + 1 - 40_000);
  });
});
