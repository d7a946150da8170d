import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { autopayAttempts, notifications, purchases, repayments, sandboxBankDebits } from '../../db/schema';
import { runJob } from '../../jobs/runner';
import { dyingAfterDebit, verifyAutopay } from '../../test/autopay-fixture';
import { createHarness, type Harness, secondInstance } from '../../test/harness';
import { kstAt, noticeKinds } from '../../test/notice-helpers';
import { insertPurchase } from '../../test/purchase-fixture';
import { createSandboxBank, sandboxAccount, setSandboxAccount } from '../bank/sandbox-bank';
import { idempotencyKeyOf, runAutopay } from './autopay-job';

let h: Harness;
beforeEach(async () => {
  h = await createHarness({ now: kstAt('2026-11-05').toISOString() });
});
afterEach(() => h.close());

async function dueCustomer() {
  h.clock.set(kstAt('2026-11-05'));
  const customer = await h.signUp({ accountName: '신한', account: '11122233344' });
  await verifyAutopay(h, customer);
  await insertPurchase(h.database.db, { customerId: customer.customerId, totalPrice: 30_000, at: kstAt('2026-11-06') });
  await setSandboxAccount(h.database.db, '신한', '11122233344', { balance: 50_000 }, h.clock.now());
  h.clock.set(kstAt('2026-12-15', 10, 0));
  return customer;
}

const repaymentsOf = (customerId: number) =>
  h.database.db.select().from(repayments).where(eq(repayments.customerId, customerId));

describe('autopay never debits twice (docs/rules/bills-and-grades.md#B17)', () => {
  it('two instances racing the plan and the debits: one attempt, one debit, one repayment, one notice', async () => {
    const { customerId } = await dueCustomer();
    const instance = async () => {
      await runJob(h.database.db, h.clock, 'autopay');
      return runAutopay(h.database.db, createSandboxBank(h.database.db, h.clock), h.clock);
    };
    const [a, b] = await Promise.all([instance(), instance()]);
    expect(a.paid + b.paid).toBe(1);
    expect(await h.database.db.select().from(autopayAttempts)).toHaveLength(1);
    expect(await repaymentsOf(customerId)).toHaveLength(1);
    expect((await sandboxAccount(h.database.db, '신한', '11122233344')).balance).toBe(20_000);
    // A second instance on the same database: both dispatchers racing the events give each notice once.
    const other = await secondInstance(h);
    try {
      await Promise.all([h.app.relay.drain(), other.relay.drain()]);
    } finally {
      await other.close();
    }
    expect(await noticeKinds(h, customerId)).toEqual(['payment_completed', 'autopay_succeeded']);
  });

  it('a process that dies between the bank’s answer and the repayment: retried with the same key, debited once', async () => {
    const { customerId } = await dueCustomer();
    const sandbox = createSandboxBank(h.database.db, h.clock);
    // The bank debits, then the process "dies" before it can record the answer.
    const dying = dyingAfterDebit(sandbox);
    await runJob(h.database.db, h.clock, 'autopay');
    await expect(runAutopay(h.database.db, dying, h.clock)).rejects.toThrow('process killed');
    expect((await sandboxAccount(h.database.db, '신한', '11122233344')).balance).toBe(20_000);
    expect(await repaymentsOf(customerId)).toHaveLength(0);
    const [attempt] = await h.database.db.select().from(autopayAttempts);
    expect(attempt?.status).toBe('PENDING');

    // Within the lease nobody takes it; the next day's plan makes no second attempt for the open one.
    expect(await runAutopay(h.database.db, sandbox, h.clock)).toEqual({ paid: 0, failed: 0, retrying: 0, skipped: 0 });
    h.clock.set(kstAt('2026-12-16', 10, 0));
    expect((await runJob(h.database.db, h.clock, 'autopay')).result).toEqual({ planned: 0 });
    // The restarted process asks again with the same key: the bank answers `paid` without a second debit.
    expect(await runAutopay(h.database.db, sandbox, h.clock)).toMatchObject({ paid: 1 });
    expect((await sandboxAccount(h.database.db, '신한', '11122233344')).balance).toBe(20_000);
    expect(await h.database.db.select().from(sandboxBankDebits)).toEqual([
      expect.objectContaining({
        idempotencyKey: idempotencyKeyOf(attempt as NonNullable<typeof attempt>),
        result: 'paid',
      }),
    ]);
    expect(await repaymentsOf(customerId)).toHaveLength(1);
    const lines = await h.database.db.select().from(purchases).where(eq(purchases.customerId, customerId));
    expect(lines.map((l) => l.status)).toEqual(['PAID']);
    expect(await noticeKinds(h, customerId)).toEqual(['payment_completed', 'autopay_succeeded']);
  });

  it('`unavailable` is asked again sooner, the same day, with the same key', async () => {
    const { customerId } = await dueCustomer();
    await setSandboxAccount(h.database.db, '신한', '11122233344', { state: 'unavailable' }, h.clock.now());
    const bank = createSandboxBank(h.database.db, h.clock);
    await runJob(h.database.db, h.clock, 'autopay');
    expect(await runAutopay(h.database.db, bank, h.clock)).toMatchObject({ retrying: 1 });
    // Not due yet: nothing happens until the retry time.
    h.clock.set(kstAt('2026-12-15', 10, 20));
    expect(await runAutopay(h.database.db, bank, h.clock)).toMatchObject({ retrying: 0, paid: 0 });
    await setSandboxAccount(h.database.db, '신한', '11122233344', { state: 'open' }, h.clock.now());
    h.clock.set(kstAt('2026-12-15', 10, 31));
    expect(await runAutopay(h.database.db, bank, h.clock)).toMatchObject({ paid: 1 });
    const [attempt] = await h.database.db.select().from(autopayAttempts);
    expect(attempt).toMatchObject({ status: 'PAID', tries: 2 });
    expect(await noticeKinds(h, customerId)).toEqual(['payment_completed', 'autopay_succeeded']);
    expect(await h.database.db.select().from(notifications)).toHaveLength(2);
  });
});
