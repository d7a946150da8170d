import { addMonths, kstEndOfDay } from '@ohgood/contract/kst';
import type { MonthEndReport } from '@ohgood/contract/month-end';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/tx';
import { runJob } from '../../jobs/runner';
import { verifyAutopay } from '../../test/autopay-fixture';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { ledgerMismatches } from '../../test/ledger-invariants';
import { kstAt } from '../../test/notice-helpers';
import { insertPurchase } from '../../test/purchase-fixture';
import { refundFromConsole, signedInOperator } from '../../test/staff-fixture';
import { runAutopay } from '../autopay/autopay-job';
import { createSandboxBank, setSandboxAccount } from '../bank/sandbox-bank';
import { dueDate } from '../bills/statements';
import { trialBalance } from '../ledger/trial-balance';
import { dueDateSql } from './month-report';

/*
 * docs/rules/operations.md#O14: the month-end report on a generated November — early payments, autopay that
 * succeeds and fails, extensions by hand and by the job, an overdue bill settled late, refunds of unpaid and of
 * repaid lines, December's spending — read at several days. Every line falls in exactly one state, and the
 * ageing's total equals the ledger's customer receivable on each of those days.
 */

const MONTH = '2026-11';
let h: Harness;

/** Logs a customer in again (tokens end after 12 hours of the controlled clock). */
async function tokenOf(emailId: string): Promise<string> {
  const res = await h.app.inject({ method: 'POST', url: '/auth', payload: { emailId, pwd: 'password1!' } });
  return res.json().accessToken as string;
}

async function repay(emailId: string, ids: number[], at: Date) {
  h.clock.set(at);
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/payment/immediately',
    headers: bearer(await tokenOf(emailId)),
    payload: ids,
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function scheduled(job: 'statement-issue' | 'autopay' | 'auto-extension' | 'overdue', date: string) {
  h.clock.set(kstAt(date, job === 'autopay' ? 10 : 0, 5));
  await runJob(h.database.db, h.clock, job);
  if (job === 'autopay') await runAutopay(h.database.db, createSandboxBank(h.database.db, h.clock), h.clock);
}

/** The customer receivable as the ledger holds it at the end of a KST day, summed here from its lines. */
async function ledgerAt(date: string): Promise<number> {
  const [row] = await rowsOf<{ amount: string }>(
    h.database.db,
    sql`select coalesce(sum(l.amount), 0)::text as amount from ledger_lines l
      join ledger_entries e on e.id = l.entry_id
      where l.account_kind = 'CUSTOMER_RECEIVABLE' and e.posted_at < ${kstEndOfDay(date)}`,
  );
  return Number(row?.amount);
}

async function reportAt(month: string, asOf: string): Promise<MonthEndReport> {
  const risk = await signedInOperator(h, 'RISK');
  const res = await h.app.inject({
    method: 'GET',
    url: `/api/ops/reports/month-end?month=${month}&asOf=${asOf}`,
    headers: risk.auth,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const reports = new Map<string, MonthEndReport>();

beforeAll(async () => {
  h = await createHarness({ now: kstAt('2026-11-01').toISOString() });
  const db = h.database.db;
  const customer = async (n: number, autopayBalance?: number) => {
    h.clock.set(kstAt('2026-11-01'));
    const account = `9900${String(n).padStart(7, '0')}`;
    const signed = await h.signUp({ accountName: '국민', account });
    if (autopayBalance !== undefined) {
      await verifyAutopay(h, signed);
      await setSandboxAccount(db, '국민', account, { balance: autopayBalance }, h.clock.now());
    }
    return signed;
  };
  const buy = (customerId: number, totalPrice: number, date: string) =>
    insertPurchase(db, { customerId, totalPrice, at: kstAt(date) });

  const early = await customer(1);
  const earlyLine = await buy(early.customerId, 30_000, '2026-11-10');
  const autopaid = await customer(2, 1_000_000);
  await buy(autopaid.customerId, 40_000, '2026-11-11');
  await buy(autopaid.customerId, 2_500, '2026-11-29');
  const failing = await customer(3, 1_000);
  await buy(failing.customerId, 50_000, '2026-11-12');
  const extender = await customer(4);
  const extendedLine = await buy(extender.customerId, 20_000, '2026-11-13');
  const late = await customer(5);
  const lateLine = await buy(late.customerId, 15_000, '2026-11-14');
  const refundedUnpaid = await buy(late.customerId, 5_000, '2026-11-15');
  const repaidThenRefunded = await buy(early.customerId, 8_000, '2026-11-16');
  const december = await customer(6);
  await buy(december.customerId, 10_000, '2026-12-03');

  await repay(early.emailId, [earlyLine], kstAt('2026-11-20'));
  await repay(early.emailId, [repaidThenRefunded], kstAt('2026-11-25'));
  h.clock.set(kstAt('2026-11-26'));
  await refundFromConsole(h, refundedUnpaid);
  h.clock.set(kstAt('2026-11-28'));
  await refundFromConsole(h, repaidThenRefunded);
  reports.set('2026-11-30', await reportAt(MONTH, '2026-11-30'));

  await scheduled('statement-issue', '2026-12-01');
  h.clock.set(kstAt('2026-12-05'));
  const extended = await h.app.inject({
    method: 'POST',
    url: '/api/payment/extension',
    headers: bearer(await tokenOf(extender.emailId)),
  });
  expect(extended.statusCode, extended.body).toBe(200);
  await scheduled('autopay', '2026-12-15');
  reports.set('2026-12-15', await reportAt(MONTH, '2026-12-15'));
  await scheduled('auto-extension', '2026-12-16');
  await scheduled('autopay', '2026-12-16');
  await repay(extender.emailId, [extendedLine], kstAt('2026-12-20'));
  reports.set('2026-12-31', await reportAt(MONTH, '2026-12-31'));
  await scheduled('overdue', '2027-01-01');
  await repay(late.emailId, [lateLine], kstAt('2027-01-05'));
  reports.set('2027-01-20', await reportAt(MONTH, '2027-01-20'));
  reports.set('2027-03-10', await reportAt(MONTH, '2027-03-10'));
}, 120_000);
afterAll(() => h.close());

describe('the month-end report (O14)', () => {
  it('sorts every line of the month into one state, and the states add up to what was billed', () => {
    const r = reports.get('2027-01-20') as MonthEndReport;
    const s = r.statements;
    expect(s.issued).toEqual({ count: 5, amount: 30_000 + 40_000 + 2_500 + 50_000 + 20_000 + 15_000 + 8_000 });
    expect(s.refundedUnpaid).toEqual({ count: 1, amount: 5_000 });
    // Paid by hand by the due date: the early payer's two lines, and the extender's line before the 31st.
    expect(s.paidEarly).toEqual({ count: 3, amount: 30_000 + 8_000 + 20_000 });
    expect(s.autopaid).toEqual({ count: 2, amount: 42_500 });
    expect(s.paidLate).toEqual({ count: 1, amount: 15_000 });
    expect(s.outstanding).toEqual({ count: 1, amount: 50_000 });
    expect(s.writtenOff).toEqual({ count: 0, amount: 0 });
    const parts = [s.paidEarly, s.autopaid, s.paidLate, s.outstanding, s.writtenOff];
    expect(parts.reduce((sum, t) => sum + t.amount, 0)).toBe(s.issued.amount);
    // The failing customer and the one who never paid before the 16th were extended by the job.
    expect(s.extended).toEqual({ manual: 1, auto: 2 });
    expect(s.overdue).toEqual({ count: 2, amount: 50_000 });
    // Two refused debits of the failing customer (the 15th, the 16th), 50,000원 asked each time.
    expect(s.failedDebits).toEqual({ count: 2, amount: 100_000 });
    expect(r.merchants).toMatchObject({ fees: 0, payouts: 0 });
  });

  it('reads a past day as it stood, each day summing to the ledger', async () => {
    const atMonthEnd = reports.get('2026-11-30') as MonthEndReport;
    expect(atMonthEnd.statements.outstanding.amount).toBe(40_000 + 2_500 + 50_000 + 20_000 + 15_000);
    expect(atMonthEnd.statements.extended).toEqual({ manual: 0, auto: 0 });
    const atDue = reports.get('2026-12-15') as MonthEndReport;
    expect(atDue.statements.autopaid.amount).toBe(42_500);
    expect(atDue.statements.failedDebits.count).toBe(1);
    expect(atDue.statements.extended).toEqual({ manual: 1, auto: 0 });
    for (const [asOf, report] of reports) {
      const ledger = await ledgerAt(asOf);
      expect(report.ageing.ledgerReceivable, asOf).toBe(ledger);
      expect(report.ageing.total, asOf).toBe(ledger);
      expect(
        report.ageing.buckets.reduce((sum, b) => sum + b.amount, 0),
        asOf,
      ).toBe(ledger);
    }
  });

  it('ages the unpaid lines by days past the due date in force', () => {
    const byBucket = (asOf: string) =>
      Object.fromEntries((reports.get(asOf) as MonthEndReport).ageing.buckets.map((b) => [b.bucket, b.amount]));
    // On the 15th nothing is past due yet: November is due today, December's spending is months off.
    expect(byBucket('2026-12-15')).toEqual({
      current: 50_000 + 20_000 + 15_000 + 10_000,
      d1to30: 0,
      d31to60: 0,
      d61plus: 0,
    });
    // On 20 January: November, extended to 31 December, is 20 days late; December, due the 15th, 5.
    expect(byBucket('2027-01-20')).toEqual({ current: 0, d1to30: 60_000, d31to60: 0, d61plus: 0 });
    // By 10 March: November 69 days past its extended due date, December 54 past the 15th of January.
    expect(byBucket('2027-03-10')).toEqual({ current: 0, d1to30: 0, d31to60: 10_000, d61plus: 50_000 });
  });

  it('agrees with the trial balance and the ledger invariants today', async () => {
    const today = reports.get('2027-03-10') as MonthEndReport;
    const receivable = (await trialBalance(h.database.db)).kinds.find((k) => k.kind === 'CUSTOMER_RECEIVABLE');
    expect(today.ageing.total).toBe((receivable?.debit ?? 0) - (receivable?.credit ?? 0));
    expect(await ledgerMismatches(h.database.db)).toEqual([]);
    const december = await reportAt(addMonths(MONTH, 1), '2027-03-10');
    expect(today.statements.outstanding.amount + december.statements.outstanding.amount).toBe(today.ageing.total);
  });

  it('exports the repayments by how they were made and the debits with the bank’s answers (O15)', async () => {
    const risk = await signedInOperator(h, 'RISK');
    const csv = async (kind: string) => {
      const res = await h.app.inject({
        method: 'GET',
        url: `/api/ops/exports/${kind}.csv?from=2026-11-01&to=2027-01-31`,
        headers: risk.auth,
      });
      expect(res.statusCode).toBe(200);
      return res.body.slice(1).split('\r\n').slice(1, -1);
    };
    const repayments = await csv('repayments');
    // Four by hand (two early lines, the extender, the late payer) and one by autopay, oldest first.
    expect(repayments.map((line) => line.split(',')[6])).toEqual([
      '직접 납부',
      '직접 납부',
      '자동 납부',
      '직접 납부',
      '직접 납부',
    ]);
    expect(repayments[2]).toContain(',42500,2,자동 납부,국민,****');
    const attempts = (await csv('autopay-attempts')).map((line) => line.split(','));
    expect(attempts.map((cells) => [cells[1], cells[5], cells[6], cells[7]])).toEqual([
      ['2026-12-15', 'PAID', '42500', 'paid'],
      ['2026-12-15', 'FAILED', '50000', 'insufficient_funds'],
      ['2026-12-16', 'FAILED', '50000', 'insufficient_funds'],
    ]);
  });

  it('computes due dates in SQL exactly as the bills do', async () => {
    const months = ['2026-01', '2026-11', '2026-12', '2027-01', '2028-01', '2028-02'];
    for (const month of months) {
      for (const extended of [false, true]) {
        const [row] = await rowsOf<{ due: string }>(
          h.database.db,
          sql`select ${dueDateSql(sql`${month}::text`, extended ? sql`true` : sql`false`)}::text as due`,
        );
        expect(row?.due, `${month} ${extended}`).toBe(dueDate(month, extended));
      }
    }
  });
});
