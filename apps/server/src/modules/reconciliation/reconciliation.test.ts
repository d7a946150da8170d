import { addDays } from '@ohgood/contract/kst';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  accountVerifications,
  autopayAttempts,
  reconciliations,
  repayments,
  sandboxBankCredits,
  sandboxBankDebits,
  sandboxBankDeposits,
  staffAlerts,
} from '../../db/schema';
import { withTx } from '../../db/tx';
import { catchUp, runJob } from '../../jobs/runner';
import { consentToAutopay, sendCode, verifyAutopay } from '../../test/autopay-fixture';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { kstAt } from '../../test/notice-helpers';
import { insertPurchase } from '../../test/purchase-fixture';
import { signedInOperator } from '../../test/staff-fixture';
import { idempotencyKeyOf, runAutopay } from '../autopay/autopay-job';
import { createSandboxBank, setSandboxAccount } from '../bank/sandbox-bank';
import { reconcileDay } from './reconcile';

/*
 * The daily reconciliation (docs/rules/bills-and-grades.md#B20) on the real database: a day of real autopay
 * debits reconciles clean; each kind of mismatch, injected into the bank's records or our books, is reported
 * with its reference; the day's row and staff alert are kept once however often or by however many instances
 * it runs; missed days are caught up; the console and `/metrics` show the figure.
 */
const METRICS_TOKEN = 'reconciliation-metrics-token';
let h: Harness;
beforeEach(async () => {
  h = await createHarness({ now: kstAt('2026-11-05').toISOString(), config: { METRICS_TOKEN } });
});
afterEach(() => h.close());

const DAY = '2026-12-15';
const BANK = '신한';

/**
 * A customer with autopay on (consent given, account verified by its 1원 deposit on 5 November), a 33,000원
 * line in November's statement and money in the sandbox bank.
 */
async function autopayCustomer(account: string) {
  h.clock.set(kstAt('2026-11-05'));
  const { customerId, emailId, token } = await h.signUp({ accountName: BANK, account });
  await verifyAutopay(h, { token, customerId });
  const purchaseId = await insertPurchase(h.database.db, { customerId, totalPrice: 33_000, at: kstAt('2026-11-06') });
  await setSandboxAccount(h.database.db, BANK, account, { balance: 100_000 }, h.clock.now());
  return { customerId, emailId, purchaseId };
}

/** The due date's autopay: the plan at 10:00 KST, then its debits through the sandbox bank. */
async function autopayOnDueDate() {
  h.clock.set(kstAt(DAY, 10, 0));
  await runJob(h.database.db, h.clock, 'autopay');
  await runAutopay(h.database.db, createSandboxBank(h.database.db, h.clock), h.clock);
}

/** The scheduled run the next morning (01:30 KST), which reconciles `day`. */
async function reconcileNextMorning(day = DAY) {
  h.clock.set(kstAt(addDays(day, 1), 1, 30));
  return runJob(h.database.db, h.clock, 'reconciliation');
}

const rowOf = async (day: string) =>
  (await h.database.db.select().from(reconciliations).where(eq(reconciliations.day, day)))[0];

const attemptOf = async (customerId: number) =>
  (await h.database.db.select().from(autopayAttempts).where(eq(autopayAttempts.customerId, customerId)))[0];

/**
 * Four customers debited on the due date, then one mismatch of each kind: a debit the bank booked with no
 * collection in our books, a collection the bank has no debit for, a debit whose amount differs, a repayment
 * whose lines do not sum, and a surplus credit with no refund recorded.
 */
async function dayWithEveryMismatch() {
  const customers = await Promise.all(['3000000001', '3000000002', '3000000003', '3000000004'].map(autopayCustomer));
  await autopayOnDueDate();
  const [clean, noBankDebit, otherAmount, unbalanced] = await Promise.all(
    customers.map(({ customerId }) => attemptOf(customerId)),
  );
  if (!clean || !noBankDebit || !otherAmount || !unbalanced?.repaymentId) throw new Error('autopay did not debit');
  const db = h.database.db;
  const booked = kstAt(DAY, 10, 5);
  await db.insert(sandboxBankDebits).values({
    idempotencyKey: 'autopay:999999:2026-12-15',
    bank: BANK,
    account: '3000000009',
    amount: 12_000,
    result: 'paid',
    createdAt: booked,
  });
  await db.delete(sandboxBankDebits).where(eq(sandboxBankDebits.idempotencyKey, idempotencyKeyOf(noBankDebit)));
  await db
    .update(sandboxBankDebits)
    .set({ amount: 34_000 })
    .where(eq(sandboxBankDebits.idempotencyKey, idempotencyKeyOf(otherAmount)));
  await db.update(repayments).set({ amount: 30_000 }).where(eq(repayments.id, unbalanced.repaymentId));
  await db.insert(sandboxBankCredits).values({
    idempotencyKey: 'autopay-surplus:888888',
    bank: BANK,
    account: '3000000001',
    amount: 5_000,
    result: 'credited',
    createdAt: booked,
  });
  return { noBankDebit, otherAmount, unbalanced };
}

describe('the daily reconciliation', () => {
  it('reconciles a day of autopay debits and an early payment with no mismatch', async () => {
    await autopayCustomer('3000000001');
    await autopayCustomer('3000000002');
    // An early payment is the customer's own transfer: a repayment with lines, not a bank movement of ours.
    const early = await autopayCustomer('3000000003');
    h.clock.set(kstAt(DAY, 9, 0));
    const login = await h.app.inject({
      method: 'POST',
      url: '/auth',
      payload: { emailId: early.emailId, pwd: 'password1!' },
    });
    const paid = await h.app.inject({
      method: 'POST',
      url: '/api/payment/immediately',
      headers: bearer(login.json().accessToken),
      payload: [early.purchaseId],
    });
    expect(paid.statusCode, paid.body).toBe(200);
    await autopayOnDueDate();

    const outcome = await reconcileNextMorning();
    expect(outcome).toMatchObject({ ran: true, period: '2026-12-16', result: { day: DAY, mismatches: 0 } });
    expect(await rowOf(DAY)).toMatchObject({
      bankDebits: 2,
      bankDebitSum: 66_000,
      bookDebits: 2,
      bookDebitSum: 66_000,
      bankCredits: 0,
      bookCredits: 0,
      mismatchCount: 0,
      mismatches: [],
    });
    expect(await h.database.db.select().from(staffAlerts)).toEqual([]);
  });

  it('matches each 1원 인증 deposit with the code the product sent, and names one the books lack', async () => {
    const VERIFIED_ON = '2026-11-05';
    await autopayCustomer('3000000001');
    await autopayCustomer('3000000002');
    // A third customer asks for a code the bank never deposits (its answer lost, the bank did not act).
    const { token, customerId } = await h.signUp({ accountName: BANK, account: '3000000003' });
    await consentToAutopay(h, token);
    expect((await sendCode(h, token)).statusCode).toBe(200);
    const [lost] = await h.database.db
      .select({ id: accountVerifications.id })
      .from(accountVerifications)
      .where(eq(accountVerifications.customerId, customerId));
    await h.database.db
      .delete(sandboxBankDeposits)
      .where(eq(sandboxBankDeposits.idempotencyKey, `account-verification:${lost?.id}`));

    const outcome = await reconcileNextMorning(VERIFIED_ON);
    expect(outcome.result).toMatchObject({ day: VERIFIED_ON, mismatches: 1 });
    expect(await rowOf(VERIFIED_ON)).toMatchObject({
      bankCredits: 2,
      bankCreditSum: 2,
      bookCredits: 3,
      bookCreditSum: 3,
      mismatches: [
        {
          kind: 'missing_at_bank',
          movement: 'verification_deposit',
          direction: 'credit',
          reference: `account-verification:${lost?.id}`,
          bankAmount: null,
          bookAmount: 1,
        },
      ],
    });
  });

  it('reports each injected mismatch with its kind and reference, and raises one staff alert', async () => {
    const { noBankDebit, otherAmount, unbalanced } = await dayWithEveryMismatch();
    const outcome = await reconcileNextMorning();
    expect(outcome.result).toMatchObject({ day: DAY, mismatches: 5, alert: expect.stringContaining('불일치 5건') });
    const row = await rowOf(DAY);
    expect(row?.mismatchCount).toBe(5);
    expect(row?.mismatches).toHaveLength(5);
    expect(row?.mismatches).toEqual(
      expect.arrayContaining([
        {
          kind: 'missing_in_books',
          movement: 'autopay_debit',
          direction: 'debit',
          reference: 'autopay:999999:2026-12-15',
          bankAmount: 12_000,
          bookAmount: null,
        },
        {
          kind: 'missing_at_bank',
          movement: 'autopay_debit',
          direction: 'debit',
          reference: idempotencyKeyOf(noBankDebit),
          bankAmount: null,
          bookAmount: 33_000,
        },
        {
          kind: 'amount_differs',
          movement: 'autopay_debit',
          direction: 'debit',
          reference: idempotencyKeyOf(otherAmount),
          bankAmount: 34_000,
          bookAmount: 33_000,
        },
        {
          kind: 'lines_do_not_sum',
          movement: 'repayment',
          direction: null,
          reference: `repayment:${unbalanced.repaymentId}`,
          bankAmount: null,
          bookAmount: 30_000,
        },
        {
          kind: 'missing_in_books',
          movement: 'surplus_refund',
          direction: 'credit',
          reference: 'autopay-surplus:888888',
          bankAmount: 5_000,
          bookAmount: null,
        },
      ]),
    );
    // Both sides' figures: the bank booked 4 debits (3 real + 1 stray), our books 4 collections.
    expect(row).toMatchObject({
      bankDebits: 4,
      bankDebitSum: 33_000 + 34_000 + 33_000 + 12_000,
      bookDebits: 4,
      bookDebitSum: 4 * 33_000,
      bankCredits: 1,
      bankCreditSum: 5_000,
      bookCredits: 0,
    });
    expect(await h.database.db.select().from(staffAlerts)).toEqual([
      expect.objectContaining({ kind: 'reconciliation', subject: DAY, resolvedAt: null }),
    ]);
  });

  it('replaces the day’s row when the day is reconciled again, and resolves the alert once it matches', async () => {
    const { unbalanced } = await dayWithEveryMismatch();
    await reconcileNextMorning();
    const bank = createSandboxBank(h.database.db, h.clock);
    const again = () => withTx(h.database.db, (tx) => reconcileDay(tx, bank, DAY, h.clock.now()));
    const db = h.database.db;

    await db
      .update(repayments)
      .set({ amount: 33_000 })
      .where(eq(repayments.id, unbalanced.repaymentId ?? 0));
    expect(await again()).toMatchObject({ mismatches: 4 });
    expect(await db.select().from(reconciliations)).toEqual([expect.objectContaining({ day: DAY, mismatchCount: 4 })]);
    expect(await db.select().from(staffAlerts)).toEqual([expect.objectContaining({ resolvedAt: null })]);

    // The bank's records put right (what a corrected statement would say): the day is clean again.
    await db.delete(sandboxBankCredits);
    await db.delete(sandboxBankDebits);
    for (const attempt of await db.select().from(autopayAttempts)) {
      await db.insert(sandboxBankDebits).values({
        idempotencyKey: idempotencyKeyOf(attempt),
        bank: BANK,
        account: 'any',
        amount: attempt.amount ?? 0,
        result: 'paid',
        createdAt: attempt.finishedAt ?? new Date(0),
      });
    }
    expect(await again()).toEqual({ day: DAY, mismatches: 0 });
    expect(await db.select().from(reconciliations)).toEqual([
      expect.objectContaining({ day: DAY, mismatchCount: 0, mismatches: [], bankDebits: 4, bookDebits: 4 }),
    ]);
    expect(await db.select().from(staffAlerts)).toEqual([
      expect.objectContaining({ subject: DAY, resolvedAt: expect.any(Date) }),
    ]);
  });

  it('runs once per cluster when two instances start the run at the same moment', async () => {
    await dayWithEveryMismatch();
    h.clock.set(kstAt('2026-12-16', 1, 30));
    const outcomes = await Promise.all([
      runJob(h.database.db, h.clock, 'reconciliation'),
      runJob(h.database.db, h.clock, 'reconciliation'),
    ]);
    expect(outcomes.map((o) => o.ran).sort()).toEqual([false, true]);
    expect(await h.database.db.select().from(reconciliations)).toHaveLength(1);
    expect(await h.database.db.select().from(staffAlerts)).toHaveLength(1);
  });

  it('catches up every missed day in order after downtime', async () => {
    await reconcileNextMorning('2026-12-13');
    await autopayCustomer('3000000001');
    await autopayOnDueDate();
    // Down from the 14th's run until the 17th 09:00: the 14th, 15th and 16th have not been reconciled.
    h.clock.set(kstAt('2026-12-17', 9, 0));
    const caught = (await catchUp(h.database.db, h.clock)).filter((o) => o.job === 'reconciliation');
    expect(caught.map((o) => o.result)).toEqual([
      { day: '2026-12-14', mismatches: 0 },
      { day: '2026-12-15', mismatches: 0 },
      { day: '2026-12-16', mismatches: 0 },
    ]);
    expect(await rowOf('2026-12-15')).toMatchObject({ bankDebits: 1, bookDebits: 1, bankDebitSum: 33_000 });
    expect((await h.database.db.select().from(reconciliations)).map((r) => r.day).sort()).toEqual([
      '2026-12-13',
      '2026-12-14',
      '2026-12-15',
      '2026-12-16',
    ]);
  });

  it('shows the day on the console and its mismatch count on the home and in /metrics', async () => {
    await dayWithEveryMismatch();
    await reconcileNextMorning();
    const risk = await signedInOperator(h, 'RISK');
    const list = await h.app.inject({ method: 'GET', url: '/api/ops/reconciliations', headers: risk.auth });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().items).toEqual([
      expect.objectContaining({
        day: DAY,
        mismatchCount: 5,
        bank: { debits: { count: 4, sum: 112_000 }, credits: { count: 1, sum: 5_000 } },
      }),
    ]);
    const day = await h.app.inject({ method: 'GET', url: `/api/ops/reconciliations/${DAY}`, headers: risk.auth });
    expect(day.json().mismatches).toHaveLength(5);
    const none = await h.app.inject({ method: 'GET', url: '/api/ops/reconciliations/2026-12-01', headers: risk.auth });
    expect(none.json()).toMatchObject({ code: 'RECONCILIATION_NOT_FOUND' });

    const home = await h.app.inject({ method: 'GET', url: '/api/ops/home', headers: risk.auth });
    expect(home.json()).toMatchObject({
      reconciliation: { day: DAY, mismatches: 5 },
      alerts: [
        expect.objectContaining({ kind: 'reconciliation', subject: DAY, message: expect.stringContaining(DAY) }),
      ],
    });
    const support = await signedInOperator(h, 'SUPPORT');
    expect(
      (await h.app.inject({ method: 'GET', url: '/api/ops/reconciliations', headers: support.auth })).statusCode,
    ).toBe(403);

    const metrics = await h.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(metrics.body).toMatch(/^reconciliation_mismatches 5$/m);
  });
});
