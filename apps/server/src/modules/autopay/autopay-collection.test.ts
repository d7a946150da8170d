import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { autopayAttempts, purchases, repayments, sandboxBankCredits, sandboxBankDebits } from '../../db/schema';
import { runJob } from '../../jobs/runner';
import { verifyAutopay } from '../../test/autopay-fixture';
import { deferred } from '../../test/deferred';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { kstAt, noticeKinds, noticesAfterDispatch } from '../../test/notice-helpers';
import { insertPurchase } from '../../test/purchase-fixture';
import { refundFromConsole } from '../../test/staff-fixture';
import type { BankGateway, DebitRequest } from '../bank/gateway';
import { createSandboxBank, sandboxAccount, setSandboxAccount } from '../bank/sandbox-bank';
import { runAutopay, surplusKeyOf } from './autopay-job';

/*
 * One owner per won (docs/rules/bills-and-grades.md#B18): a line autopay is collecting cannot be paid again
 * while the bank is asked, a bank that does not answer in time is asked again with the same key, a debit the
 * bank still reports for lines settled meanwhile is given back once, and one slow customer never holds up the
 * rest. Money is checked end to end: the sandbox bank's balance and records, repayments, lines and notices.
 */
let h: Harness;
beforeEach(async () => {
  h = await createHarness({ now: kstAt('2026-11-05').toISOString() });
});
afterEach(() => h.close());

const ACCOUNT = { bank: '신한', account: '11122233344' } as const;

async function dueCustomer(account: string = ACCOUNT.account) {
  h.clock.set(kstAt('2026-11-05'));
  const signed = await h.signUp({ accountName: ACCOUNT.bank, account });
  const { customerId, emailId } = signed;
  await verifyAutopay(h, signed);
  const purchaseId = await insertPurchase(h.database.db, {
    customerId,
    totalPrice: 33_000,
    at: kstAt('2026-11-06'),
  });
  await setSandboxAccount(h.database.db, ACCOUNT.bank, account, { balance: 50_000 }, h.clock.now());
  h.clock.set(kstAt('2026-12-15', 10, 0));
  // Signed in on the due date (a token lasts hours, not the month since the purchase).
  const login = await h.app.inject({ method: 'POST', url: '/auth', payload: { emailId, pwd: 'password1!' } });
  return { customerId, token: login.json().accessToken as string, purchaseId };
}

/**
 * The sandbox bank, with each debit held until the test lets it go (`started` says it was asked); `credit`
 * replaces the sandbox's credit when given.
 */
function heldBank(credit?: BankGateway['credit']) {
  const sandbox = createSandboxBank(h.database.db, h.clock);
  const started = deferred<DebitRequest>();
  const release = deferred<void>();
  const bank: BankGateway = {
    ...sandbox,
    async debit(request) {
      started.resolve(request);
      await release.promise;
      return sandbox.debit(request);
    },
    credit: credit ?? ((request) => sandbox.credit(request)),
  };
  return { bank, started: started.promise, release: () => release.resolve() };
}

/** Refunds the line as the console does for a shop, while autopay's debit of it is being asked. */
async function refundDuringDebit(purchaseId: number, held: ReturnType<typeof heldBank>) {
  await runJob(h.database.db, h.clock, 'autopay');
  const run = runAutopay(h.database.db, held.bank, h.clock);
  await held.started;
  await refundFromConsole(h, purchaseId);
  held.release();
  return run;
}

const payEarly = (token: string, purchaseId: number) =>
  h.app.inject({
    method: 'POST',
    url: '/api/payment/immediately',
    headers: bearer(token),
    payload: [purchaseId],
  });

const repaymentsOf = (customerId: number) =>
  h.database.db.select().from(repayments).where(eq(repayments.customerId, customerId));
const linesOf = (customerId: number) =>
  h.database.db.select().from(purchases).where(eq(purchases.customerId, customerId));

describe('autopay and an early payment of the same lines', () => {
  it('refuses the early payment while the bank is asked, then records the debit once', async () => {
    const { customerId, token, purchaseId } = await dueCustomer();
    const held = heldBank();
    await runJob(h.database.db, h.clock, 'autopay');
    const run = runAutopay(h.database.db, held.bank, h.clock);
    await held.started;

    const early = await payEarly(token, purchaseId);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({
      code: 'AUTOPAY_IN_PROGRESS',
      message: '자동 납부로 출금하고 있는 내역이에요. 은행의 답을 받는 대로 알려 드릴게요. 잠시 후 다시 확인해 주세요.',
    });

    held.release();
    expect(await run).toMatchObject({ paid: 1 });
    expect((await sandboxAccount(h.database.db, ACCOUNT.bank, ACCOUNT.account)).balance).toBe(17_000);
    expect(await repaymentsOf(customerId)).toEqual([expect.objectContaining({ amount: 33_000 })]);
    expect(await linesOf(customerId)).toEqual([expect.objectContaining({ status: 'PAID', collectingAttemptId: null })]);
    expect(await h.database.db.select().from(sandboxBankCredits)).toEqual([]);
    expect(await noticeKinds(h, customerId)).toEqual(['payment_completed', 'autopay_succeeded']);

    // The answer is in: paying again now says it is paid, not that it is being collected.
    expect((await payEarly(token, purchaseId)).json().code).toBe('ALREADY_PAID');
  });

  it('pays early first, and autopay then debits nothing', async () => {
    const { customerId, token, purchaseId } = await dueCustomer();
    await runJob(h.database.db, h.clock, 'autopay');
    expect((await payEarly(token, purchaseId)).statusCode).toBe(200);
    expect(await runAutopay(h.database.db, createSandboxBank(h.database.db, h.clock), h.clock)).toMatchObject({
      paid: 0,
      skipped: 1,
    });
    expect((await sandboxAccount(h.database.db, ACCOUNT.bank, ACCOUNT.account)).balance).toBe(50_000);
    expect(await h.database.db.select().from(sandboxBankDebits)).toEqual([]);
    expect(await repaymentsOf(customerId)).toHaveLength(1);
    expect(await noticeKinds(h, customerId)).not.toContain('autopay_succeeded');
  });

  it('gives back, once and with a notice, what the bank took for a line refunded while it was asked', async () => {
    const { customerId, purchaseId } = await dueCustomer();
    expect(await refundDuringDebit(purchaseId, heldBank())).toMatchObject({ paid: 1 });

    const [attempt] = await h.database.db.select().from(autopayAttempts);
    expect(attempt).toMatchObject({ status: 'PAID', surplus: 33_000, repaymentId: null });
    expect(attempt?.surplusRefundedAt).not.toBeNull();
    // Debited 33,000, credited 33,000 back under the surplus's own key: the account is whole.
    expect((await sandboxAccount(h.database.db, ACCOUNT.bank, ACCOUNT.account)).balance).toBe(50_000);
    expect(await h.database.db.select().from(sandboxBankCredits)).toEqual([
      expect.objectContaining({ idempotencyKey: surplusKeyOf({ id: attempt?.id ?? 0 }), amount: 33_000 }),
    ]);
    expect(await repaymentsOf(customerId)).toEqual([]);
    const notices = await noticesAfterDispatch(h, customerId);
    expect(notices.filter((n) => n.kind === 'autopay_refunded').map((n) => n.body)).toEqual([
      '11월 자동 납부에서 이미 납부된 금액까지 출금되어 33,000원을 연결 계좌로 돌려드렸어요.',
    ]);

    // A later run owes nothing more: no second credit.
    await runAutopay(h.database.db, createSandboxBank(h.database.db, h.clock), h.clock);
    expect(await h.database.db.select().from(sandboxBankCredits)).toHaveLength(1);
  });

  it('a surplus whose credit failed is given back by the next run, once, with the same key', async () => {
    const { customerId, purchaseId } = await dueCustomer();
    const down = heldBank(async () => 'unavailable');
    expect(await refundDuringDebit(purchaseId, down)).toMatchObject({ paid: 1 });
    const [owed] = await h.database.db.select().from(autopayAttempts);
    expect(owed).toMatchObject({ surplus: 33_000, surplusRefundedAt: null });
    expect((await sandboxAccount(h.database.db, ACCOUNT.bank, ACCOUNT.account)).balance).toBe(17_000);

    // Two instances' next runs race for it: one credit.
    const bank = createSandboxBank(h.database.db, h.clock);
    await Promise.all([runAutopay(h.database.db, bank, h.clock), runAutopay(h.database.db, bank, h.clock)]);
    expect((await sandboxAccount(h.database.db, ACCOUNT.bank, ACCOUNT.account)).balance).toBe(50_000);
    expect(await h.database.db.select().from(sandboxBankCredits)).toEqual([
      expect.objectContaining({ idempotencyKey: surplusKeyOf({ id: owed?.id ?? 0 }), result: 'credited' }),
    ]);
    expect((await noticeKinds(h, customerId)).filter((k) => k === 'autopay_refunded')).toHaveLength(1);
  });
});

describe('a slow bank and a busy customer hold up nobody else', () => {
  it('a debit the bank does not answer in time is unknown: the line stays collected, asked again with its key', async () => {
    const slow = await dueCustomer('90000000001');
    const quick = await dueCustomer('90000000002');
    const sandbox = createSandboxBank(h.database.db, h.clock);
    const never = new Promise<never>(() => undefined);
    // The bank acts on the slow customer's debit but its answer never arrives.
    const lateBank: BankGateway = {
      ...sandbox,
      async debit(request) {
        const answer = await sandbox.debit(request);
        if (request.account === '90000000001') return never;
        return answer;
      },
      credit: (request) => sandbox.credit(request),
    };
    await runJob(h.database.db, h.clock, 'autopay');
    expect(await runAutopay(h.database.db, lateBank, h.clock, { bankTimeoutMs: 300 })).toMatchObject({
      paid: 1,
      retrying: 1,
    });
    expect(await noticeKinds(h, quick.customerId)).toContain('autopay_succeeded');
    const [unknown] = await h.database.db
      .select()
      .from(autopayAttempts)
      .where(eq(autopayAttempts.customerId, slow.customerId));
    expect(unknown).toMatchObject({ status: 'PENDING', result: 'unknown', leaseUntil: null });
    expect((await payEarly(slow.token, slow.purchaseId)).json().code).toBe('AUTOPAY_IN_PROGRESS');

    // Ten minutes on, asked again with the same key: the bank answers what it did, no second debit.
    h.clock.set(kstAt('2026-12-15', 10, 11));
    expect(await runAutopay(h.database.db, sandbox, h.clock)).toMatchObject({ paid: 1 });
    expect((await sandboxAccount(h.database.db, ACCOUNT.bank, '90000000001')).balance).toBe(17_000);
    expect(await repaymentsOf(slow.customerId)).toHaveLength(1);
    expect((await linesOf(slow.customerId)).map((l) => l.status)).toEqual(['PAID']);
  });

  it('a customer whose row another transaction holds is passed over for a minute, not waited for', async () => {
    const busy = await dueCustomer('90000000003');
    const free = await dueCustomer('90000000004');
    await runJob(h.database.db, h.clock, 'autopay');
    const holder = await h.database.pool.connect();
    try {
      await holder.query('begin');
      await holder.query('select id from customers where id = $1 for update', [busy.customerId]);
      const bank = createSandboxBank(h.database.db, h.clock);
      expect(await runAutopay(h.database.db, bank, h.clock, { customerLockWaitMs: 100 })).toMatchObject({
        paid: 1,
        retrying: 1,
      });
      expect(await repaymentsOf(free.customerId)).toHaveLength(1);
      const [waiting] = await h.database.db
        .select()
        .from(autopayAttempts)
        .where(eq(autopayAttempts.customerId, busy.customerId));
      expect(waiting).toMatchObject({ status: 'PENDING', amount: null, leaseUntil: null });
      expect(waiting?.nextTryAt.getTime()).toBe(kstAt('2026-12-15', 10, 1).getTime());
    } finally {
      await holder.query('rollback');
      holder.release();
    }
    h.clock.set(kstAt('2026-12-15', 10, 1));
    expect(await runAutopay(h.database.db, createSandboxBank(h.database.db, h.clock), h.clock)).toMatchObject({
      paid: 1,
    });
    expect(await repaymentsOf(busy.customerId)).toHaveLength(1);
  });
});
