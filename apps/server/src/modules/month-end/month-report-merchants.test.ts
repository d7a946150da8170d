import { addDays, kstStartOfDay } from '@ohgood/contract/kst';
import type { MonthEndReport } from '@ohgood/contract/month-end';
import { and, gte, lt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { settlements } from '../../db/schema';
import { rowsOf } from '../../db/tx';
import { runJob } from '../../jobs/runner';
import { verifyAutopay } from '../../test/autopay-fixture';
import { createHarness, type Harness } from '../../test/harness';
import { ledgerMismatches } from '../../test/ledger-invariants';
import { createMerchant } from '../../test/merchant-fixture';
import { kstAt } from '../../test/notice-helpers';
import { insertPurchase } from '../../test/purchase-fixture';
import { refundFromConsole, signedInOperator } from '../../test/staff-fixture';
import { createSandboxBank } from '../bank/sandbox-bank';
import { trialBalance } from '../ledger/trial-balance';
import { payDueSettlements } from '../settlements/payouts';

/*
 * The month-end report's merchant side (docs/rules/operations.md#O14) on a generated November of real
 * settlements: sales at two merchants, a refund, days closed and paid by the settlement job and the payouts,
 * one merchant's payouts held, an October sale settled in November and a November sale settled in December,
 * and a 1원 인증 deposit (bank clearing that is no payout). Its fees and payouts equal what the settlements
 * say for the month and what the ledger posted in it; the CSV row says the same.
 */
const MONTH = '2026-11';
let h: Harness;
let report: MonthEndReport;
let csvRows: string[][];

const monthRange = () => [kstStartOfDay('2026-11-01'), kstStartOfDay('2026-12-01')] as const;

async function verifiedMerchant(name: string, account: string) {
  const merchant = await createMerchant(h.database.db, name);
  const admin = await signedInOperator(h, 'ADMIN');
  const risk = await signedInOperator(h, 'RISK');
  const ops = (path: string, auth: Record<string, string>, payload: object) =>
    h.app.inject({ method: 'POST', url: `/api/ops/merchants/${merchant.merchantId}/${path}`, headers: auth, payload });
  expect(
    (await ops('settlement-account', admin.auth, { bank: '신한', account, reason: '통장 사본 확인' })).statusCode,
  ).toBe(200);
  expect((await ops('settlement-account/verify', risk.auth, { reason: '예금주 확인' })).statusCode).toBe(200);
  // Signed in again when holding: operator tokens end after 12 hours of the controlled clock.
  const hold = async () => ops('payout-hold', (await signedInOperator(h, 'RISK')).auth, { reason: '부정 거래 의심' });
  return { ...merchant, hold };
}

beforeAll(async () => {
  h = await createHarness({ now: kstAt('2026-10-30').toISOString() });
  const db = h.database.db;
  const paid = await verifiedMerchant('월말정산상점', '5510000000001');
  const held = await verifiedMerchant('보류정산상점', '5510000000002');
  const { customerId } = await h.signUp({ accountName: '국민', account: '99100000001' });
  const sell = (merchantId: number, totalPrice: number, date: string, hour = 12) =>
    insertPurchase(db, { customerId, merchantId, totalPrice, at: kstAt(date, hour) });

  await sell(paid.merchantId, 12_340, '2026-10-30'); // closed 10-31, paid 11-02 (a Monday): November's payout
  await sell(paid.merchantId, 40_000, '2026-11-03');
  const refunded = await sell(paid.merchantId, 25_000, '2026-11-03', 15);
  await sell(paid.merchantId, 9_990, '2026-11-12');
  await sell(held.merchantId, 70_000, '2026-11-05');
  await sell(paid.merchantId, 33_000, '2026-11-30', 20); // closed 12-01: December's fee and payout
  h.clock.set(kstAt('2026-11-04', 10));
  await refundFromConsole(h, refunded);
  expect((await held.hold()).statusCode).toBe(200);
  // A customer's 1원 인증 in November moves bank clearing but pays no merchant.
  h.clock.set(kstAt('2026-11-20', 10));
  const verifier = await h.signUp({ accountName: '국민', account: '99100000002' });
  await verifyAutopay(h, verifier);

  // Every day from 10-31 to 12-03: the 00:30 close, then the payouts due that day.
  for (let date = '2026-10-31'; date <= '2026-12-03'; date = addDays(date, 1)) {
    h.clock.set(kstAt(date, 0, 30));
    await runJob(db, h.clock, 'settlement');
    h.clock.set(kstAt(date, 9));
    await payDueSettlements(db, createSandboxBank(db, h.clock), h.clock);
  }

  h.clock.set(kstAt('2026-12-10', 9));
  const risk = await signedInOperator(h, 'RISK');
  const res = await h.app.inject({
    method: 'GET',
    url: `/api/ops/reports/month-end?month=${MONTH}&asOf=2026-12-10`,
    headers: risk.auth,
  });
  expect(res.statusCode, res.body).toBe(200);
  report = res.json();
  const csv = await h.app.inject({
    method: 'GET',
    url: `/api/ops/exports/month-end.csv?month=${MONTH}&asOf=2026-12-10`,
    headers: risk.auth,
  });
  expect(csv.statusCode, csv.body).toBe(200);
  csvRows = csv.body
    .slice(1)
    .split('\r\n')
    .map((line) => line.split(','));
}, 180_000);
afterAll(() => h.close());

it("equals the month's settlements: fees as closed in November, payouts as the bank credited them then", async () => {
  const [from, to] = monthRange();
  const closed = await h.database.db
    .select()
    .from(settlements)
    .where(and(gte(settlements.closedAt, from), lt(settlements.closedAt, to)));
  const paidRows = await h.database.db
    .select()
    .from(settlements)
    .where(and(gte(settlements.paidAt, from), lt(settlements.paidAt, to)));
  const fees = closed.reduce((sum, s) => sum + s.fees, 0);
  const payouts = paidRows.reduce((sum, s) => sum + s.payout, 0);
  // The generated month really has both, and the held merchant's day was closed but not paid.
  expect(fees).toBeGreaterThan(0);
  expect(payouts).toBeGreaterThan(0);
  expect(closed.some((s) => s.status === 'PENDING')).toBe(true);
  // The October sale paid in November counts; the November 30 sale closed in December does not.
  expect(paidRows.some((s) => s.businessDate === '2026-10-30')).toBe(true);
  expect(closed.some((s) => s.businessDate === '2026-11-30')).toBe(false);
  expect(report.merchants).toMatchObject({ fees, payouts });
});

it("equals the ledger's fee revenue and payouts posted in the month, and the books balance", async () => {
  const [from, to] = monthRange();
  const [ledger] = await rowsOf<{ fees: string; payouts: string }>(
    h.database.db,
    sql`select
        coalesce(-sum(l.amount) filter (where l.account_kind = 'FEE_REVENUE'), 0)::text as fees,
        coalesce(-sum(l.amount) filter (where l.account_kind = 'BANK_CLEARING'
          and e.source_kind = 'settlement-payout'), 0)::text as payouts
      from ledger_entries e join ledger_lines l on l.entry_id = e.id
      where e.posted_at >= ${from} and e.posted_at < ${to}`,
  );
  expect(report.merchants.fees).toBe(Number(ledger?.fees));
  expect(report.merchants.payouts).toBe(Number(ledger?.payouts));
  expect(await ledgerMismatches(h.database.db)).toEqual([]);
  expect((await trialBalance(h.database.db)).balanced).toBe(true);
});

it('the CSV export says the same fees and payouts', () => {
  const row = (item: string) => csvRows.find((cells) => cells[0] === `${MONTH} 가맹점` && cells[1] === item);
  expect(Number(row('수수료')?.[3])).toBe(report.merchants.fees);
  expect(Number(row('정산 지급')?.[3])).toBe(report.merchants.payouts);
  expect(Number(row('매출')?.[3])).toBe(report.merchants.sales);
  expect(Number(row('환불')?.[3])).toBe(report.merchants.refunds);
});
