import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { autopayAttempts, customers, purchases, repayments } from '../../db/schema';
import { runJob } from '../../jobs/runner';
import { verifyAutopay } from '../../test/autopay-fixture';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { kstAt, noticeKinds, noticesAfterDispatch } from '../../test/notice-helpers';
import { pay } from '../../test/payment-helpers';
import { createSandboxBank, sandboxAccount, setSandboxAccount } from '../bank/sandbox-bank';
import { runAutopay } from './autopay-job';

let h: Harness;
beforeEach(async () => {
  h = await createHarness({ now: kstAt('2026-11-05').toISOString() });
});
afterEach(() => h.close());

const ACCOUNT = { bank: '국민' as const, account: '12345678901' };

/** A customer who paid 40,000 KRW at a shop on 10 November (KST), through the real payment API. */
async function customerWithNovemberPurchase(balance: number) {
  h.clock.set(kstAt('2026-11-10'));
  const customer = await h.signUp({ accountName: ACCOUNT.bank, account: ACCOUNT.account });
  await verifyAutopay(h, customer);
  const merchant = await createMerchant(h.database.db);
  const paid = await pay(h, merchant.headers, customer.token, 40_000);
  expect(paid.res.statusCode).toBe(200);
  await setSandboxAccount(h.database.db, ACCOUNT.bank, ACCOUNT.account, { balance }, h.clock.now());
  return customer;
}

/** Runs a scheduled job at its KST minute on `date`, then (for autopay) its debits, as the scheduler does. */
async function scheduled(
  job: 'statement-issue' | 'reminders' | 'autopay' | 'auto-extension' | 'overdue',
  date: string,
) {
  const minute = { 'statement-issue': 5, reminders: 8 * 60, autopay: 10 * 60, 'auto-extension': 5, overdue: 5 }[job];
  h.clock.set(kstAt(date, 0, minute));
  const outcome = await runJob(h.database.db, h.clock, job);
  if (job === 'autopay')
    return { outcome, debits: await runAutopay(h.database.db, createSandboxBank(h.database.db, h.clock), h.clock) };
  return { outcome };
}

const lineStatus = async (customerId: number) =>
  (
    await h.database.db.select({ status: purchases.status }).from(purchases).where(eq(purchases.customerId, customerId))
  ).map((row) => row.status);

describe('a month with autopay (docs/rules/bills-and-grades.md#B16, notifications.md#N2, #N5)', () => {
  it('purchase → statement on the 1st → D-3 → D-day → debited on the 15th: each notice once', async () => {
    const { customerId } = await customerWithNovemberPurchase(100_000);
    await scheduled('statement-issue', '2026-12-01');
    await scheduled('reminders', '2026-12-12');
    await scheduled('reminders', '2026-12-13'); // neither D-3 nor D-day: nothing
    await scheduled('reminders', '2026-12-15');
    const { debits } = await scheduled('autopay', '2026-12-15');
    expect(debits).toEqual({ paid: 1, failed: 0, retrying: 0, skipped: 0 });

    // Same rules, same ledger as an early payment: one repayment record, lines PAID, the money left the bank.
    expect(await lineStatus(customerId)).toEqual(['PAID']);
    const records = await h.database.db.select().from(repayments).where(eq(repayments.customerId, customerId));
    expect(records).toHaveLength(1);
    expect(records[0]?.amount).toBe(40_000);
    expect((await sandboxAccount(h.database.db, ACCOUNT.bank, ACCOUNT.account)).balance).toBe(60_000);

    // Every job again, and every dispatch again: nothing new.
    await scheduled('statement-issue', '2026-12-01');
    await scheduled('reminders', '2026-12-15');
    await scheduled('autopay', '2026-12-15');
    const notices = await noticesAfterDispatch(h, customerId);
    expect(notices.map((n) => n.kind)).toEqual([
      'payment_completed',
      'statement_issued',
      'reminder_d3',
      'reminder_dday',
      'autopay_succeeded',
    ]);
    expect(notices.map((n) => n.body)).toEqual([
      expect.stringContaining('40,000원 결제가 완료됐어요'),
      '11월 이용 금액 40,000원, 12월 15일 자동 납부 예정이에요.',
      expect.stringContaining('12월 15일에 자동 납부해요'),
      expect.stringContaining('오늘 연결 계좌에서 자동 납부해요'),
      '11월 이용 금액 40,000원을 연결 계좌에서 납부했어요.',
    ]);
    expect(notices[0]?.link).toMatch(/^\/payment\/details\?paymentId=\d+&month=2026-11$/);
  });

  it('insufficient funds → daily retries → auto-extension → overdue → repayment → suspension lifted', async () => {
    const { customerId, emailId } = await customerWithNovemberPurchase(10_000);
    // Grade points to lose (bronze's top, so no grade changes): a notice names only points actually taken.
    await h.database.db.update(customers).set({ gradePoint: 20 }).where(eq(customers.id, customerId));
    await scheduled('statement-issue', '2026-12-01');
    expect((await scheduled('autopay', '2026-12-15')).debits).toMatchObject({ failed: 1 });
    await scheduled('auto-extension', '2026-12-16');
    expect((await scheduled('autopay', '2026-12-16')).debits).toMatchObject({ failed: 1 }); // retried the next day
    expect((await scheduled('autopay', '2026-12-31')).debits).toMatchObject({ failed: 1 });
    await scheduled('overdue', '2027-01-01');
    // Overdue: autopay stops; the customer is suspended and repays by hand.
    expect((await scheduled('autopay', '2027-01-01')).outcome.result).toEqual({ planned: 0 });
    const [row] = await h.database.db.select().from(customers).where(eq(customers.id, customerId));
    expect(row?.suspended).toBe(true);
    const login = await h.app.inject({ method: 'POST', url: '/auth', payload: { emailId, pwd: 'password1!' } });
    const ids = (
      await h.database.db.select({ id: purchases.id }).from(purchases).where(eq(purchases.customerId, customerId))
    ).map((p) => p.id);
    const repaid = await h.app.inject({
      method: 'POST',
      url: '/api/payment/immediately',
      headers: bearer(login.json().accessToken),
      payload: ids,
    });
    expect(repaid.statusCode).toBe(200);

    const attempts = await h.database.db
      .select({ date: autopayAttempts.kstDate, status: autopayAttempts.status, result: autopayAttempts.result })
      .from(autopayAttempts)
      .where(eq(autopayAttempts.customerId, customerId))
      .orderBy(autopayAttempts.id);
    expect(attempts).toEqual([
      { date: '2026-12-15', status: 'FAILED', result: 'insufficient_funds' },
      { date: '2026-12-16', status: 'FAILED', result: 'insufficient_funds' },
      { date: '2026-12-31', status: 'FAILED', result: 'insufficient_funds' },
    ]);
    // Nothing was taken from the account.
    expect((await sandboxAccount(h.database.db, ACCOUNT.bank, ACCOUNT.account)).balance).toBe(10_000);
    const notices = await noticesAfterDispatch(h, customerId);
    expect(notices.map((n) => n.kind)).toEqual([
      'payment_completed',
      'statement_issued',
      'autopay_failed',
      'extension_applied',
      'autopay_failed',
      'autopay_failed',
      'overdue',
      'overdue',
      'suspension_lifted',
    ]);
    expect(notices[2]?.body).toContain('잔액이 부족해요');
    expect(notices[3]?.body).toContain('자동 연장');
    expect(notices[3]?.body).toContain('5점');
    expect(notices.at(-1)?.title).toBe('이용 정지 해제');
  });

  it('turning autopay off stops the debit; the bill then follows extension and overdue as before', async () => {
    const { customerId, token } = await customerWithNovemberPurchase(100_000);
    const off = await h.app.inject({
      method: 'PUT',
      url: '/api/payment/autopay',
      headers: bearer(token),
      payload: { autopay: false },
    });
    expect(off.json()).toMatchObject({ success: true, data: { autopay: false, account: '****8901' } });
    expect((await scheduled('autopay', '2026-12-15')).outcome.result).toEqual({ planned: 0 });
    await scheduled('auto-extension', '2026-12-16');
    expect(await lineStatus(customerId)).toEqual(['UNPAID']);
    expect(await noticeKinds(h, customerId)).toEqual(['payment_completed', 'extension_applied']);
  });
});
