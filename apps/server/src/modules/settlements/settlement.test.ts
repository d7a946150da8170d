import { addDays } from '@ohgood/contract/kst';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, purchases, sandboxBankCredits, settlementLines, settlements } from '../../db/schema';
import { rowsOf, withTx } from '../../db/tx';
import { runJob } from '../../jobs/runner';
import { createHarness, type Harness } from '../../test/harness';
import { entriesOf, ledgerMismatches, unbalancedEntries } from '../../test/ledger-invariants';
import { createMerchant } from '../../test/merchant-fixture';
import { insertPurchase } from '../../test/purchase-fixture';
import { signedInOperator } from '../../test/staff-fixture';
import type { BankGateway } from '../bank/gateway';
import { createSandboxBank, sandboxAccount } from '../bank/sandbox-bank';
import { refundPurchaseOfRequest } from '../payments/refund';
import { closeSettlements } from './close';
import { PAYOUT_RULES, payDueSettlements, payoutKeyOf } from './payouts';

/*
 * Settlement and payouts on the real database (docs/rules/settlement.md): a generated month of sales and
 * refunds closed day by day with its fees, a holiday and a negative day carried forward; payouts made once
 * across two instances and a crash between the bank's answer and our record; holds; and the ledger agreeing
 * with it all.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const db = () => h.database.db;
const FEE_BPS = 250;
const fee = (amount: number) => Math.floor((amount * FEE_BPS) / 10_000);

/** A KST wall time on a date, e.g. at('2026-09-04', '23:59:59'). */
const at = (date: string, time: string) => new Date(`${date}T${time}+09:00`);

/** A small deterministic generator, so the month is the same on every run. */
function lcg(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % n;
  };
}

async function refund(paymentId: number, when: Date) {
  const [row] = await db()
    .select({ requestId: purchases.requestId })
    .from(purchases)
    .where(eq(purchases.id, paymentId));
  await withTx(db(), (tx) => refundPurchaseOfRequest(tx, row?.requestId ?? '', when));
}

interface ModelDay {
  sales: number;
  refunds: number;
  fees: number;
  lines: number;
}

/**
 * September 2026 at one merchant: 0–3 sales a day at random amounts and times (one at 23:59:59 and one at
 * 00:00:00 KST, either side of a day's end), about one in six refunded the same day or up to three days
 * later; 9/9 sells 500,000원 that 9/10 refunds with no sale of its own (a negative day), and 9/11 sells
 * little, so the negative net is carried twice. Returns the model: what each day must settle.
 */
async function generateMonth(customerId: number, merchantId: number) {
  const random = lcg(20260901);
  const days = new Map<string, ModelDay>();
  const day = (date: string) => {
    const found = days.get(date) ?? { sales: 0, refunds: 0, fees: 0, lines: 0 };
    days.set(date, found);
    return found;
  };
  const refunds: Array<{ paymentId: number; when: Date; amount: number }> = [];
  const sell = async (date: string, time: string, amount: number) => {
    const paymentId = await insertPurchase(db(), { customerId, merchantId, totalPrice: amount, at: at(date, time) });
    Object.assign(day(date), {
      sales: day(date).sales + amount,
      fees: day(date).fees + fee(amount),
      lines: day(date).lines + 1,
    });
    return paymentId;
  };
  for (let d = 1; d <= 30; d++) {
    const date = `2026-09-${String(d).padStart(2, '0')}`;
    if (date === '2026-09-10') continue;
    const count = date === '2026-09-11' ? 1 : Math.max(random(4), ['2026-09-04', '2026-09-23'].includes(date) ? 1 : 0);
    for (let i = 0; i < count; i++) {
      const amount = date === '2026-09-11' ? 3_000 : 1_000 + random(200) * 997;
      const time = `${String(8 + random(14)).padStart(2, '0')}:${String(random(60)).padStart(2, '0')}:00`;
      const paymentId = await sell(date, time, amount);
      const later = random(4);
      if (random(6) === 0 && d + later <= 30) {
        refunds.push({ paymentId, amount, when: at(addDays(date, later), '23:30:00') });
      }
    }
  }
  // Either side of midnight: the last second of 9/4 is 9/4's, the first of 9/5 is 9/5's.
  await sell('2026-09-04', '23:59:59', 7_777);
  await sell('2026-09-05', '00:00:00', 8_888);
  const big = await sell('2026-09-09', '12:00:00', 500_000);
  refunds.push({ paymentId: big, amount: 500_000, when: at('2026-09-10', '10:00:00') });
  for (const r of refunds) {
    await refund(r.paymentId, r.when);
    const date = new Date(r.when.getTime() + 9 * 3_600_000).toISOString().slice(0, 10);
    Object.assign(day(date), {
      refunds: day(date).refunds + r.amount,
      fees: day(date).fees - fee(r.amount),
      lines: day(date).lines + 1,
    });
  }
  return new Map([...days].sort(([a], [b]) => a.localeCompare(b)));
}

async function settlementsOf(merchantId: number) {
  return db()
    .select()
    .from(settlements)
    .where(eq(settlements.merchantId, merchantId))
    .orderBy(asc(settlements.businessDate));
}

/** The money the sandbox bank credited under a key, and how many times it recorded it. */
async function creditsUnder(key: string) {
  return db().select().from(sandboxBankCredits).where(eq(sandboxBankCredits.idempotencyKey, key));
}

describe('closing days into settlements', () => {
  it('settles a generated month: each day once, fees per sale, refunds give their fee back, a negative day carried', async () => {
    const { customerId } = await h.signUp();
    const { merchantId } = await createMerchant(db(), '정산 상점');
    const model = await generateMonth(customerId, merchantId);

    // The job of 10/1 closes every day of September at once, as a catch-up after a month without runs would.
    const first = await runJob(db(), h.clock, 'settlement', '2026-10-01');
    expect(first.ran).toBe(true);
    expect((await runJob(db(), h.clock, 'settlement', '2026-10-01')).ran).toBe(false);

    const rows = await settlementsOf(merchantId);
    expect(rows.map((r) => r.businessDate)).toEqual([...model.keys()]);
    let carried = 0;
    for (const row of rows) {
      const m = model.get(row.businessDate) as ModelDay;
      const net = m.sales - m.refunds - m.fees + carried;
      expect(row, row.businessDate).toMatchObject({
        sales: m.sales,
        refunds: m.refunds,
        fees: m.fees,
        carriedIn: carried,
        net,
        payout: Math.max(net, 0),
        status: net > 0 ? 'PENDING' : 'NO_PAYOUT',
        feeBps: FEE_BPS,
      });
      const [lines] = await rowsOf<{ n: number }>(
        db(),
        sql`select count(*)::int as n from settlement_lines where settlement_id = ${row.id}`,
      );
      expect(lines?.n, row.businessDate).toBe(m.lines);
      carried = Math.min(net, 0);
    }

    // The negative day: nothing paid, its net brought into the next settlements until it is absorbed.
    const byDate = new Map(rows.map((r) => [r.businessDate, r]));
    expect(byDate.get('2026-09-10')).toMatchObject({ sales: 0, net: -487_500, status: 'NO_PAYOUT' });
    expect(byDate.get('2026-09-11')?.carriedIn).toBe(-487_500);
    expect(byDate.get('2026-09-11')?.status).toBe('NO_PAYOUT');
    const afterNegative = rows[rows.findIndex((r) => r.businessDate === '2026-09-11') + 1];
    expect(afterNegative?.carriedIn).toBe(byDate.get('2026-09-11')?.net);

    // D+1 business day: a Friday is paid on Monday; the day before 추석 (9/24–26) and a Sunday waits to 9/28.
    expect(byDate.get('2026-09-04')?.dueDate).toBe('2026-09-07');
    expect(byDate.get('2026-09-23')?.dueDate).toBe('2026-09-28');

    // Every sale and refund settled exactly once; a later run finds nothing open.
    const again = await withTx(db(), (tx) => closeSettlements(tx, '2026-11-01', h.clock.now()));
    expect(again.settlements).toBe(0);
    expect((await settlementsOf(merchantId)).length).toBe(rows.length);

    // The fees are revenue in the ledger; the books balance and agree.
    const fees = rows.reduce((sum, r) => sum + r.fees, 0);
    expect(await entriesOf(db(), 'settlement-fee', rows[0]?.id ?? 0)).toHaveLength(1);
    const [revenue] = await rowsOf<{ balance: string }>(
      db(),
      sql`select coalesce(sum(amount), 0)::text as balance from ledger_lines l join ledger_entries e on e.id = l.entry_id
        where l.account_kind = 'FEE_REVENUE' and e.source_kind = 'settlement-fee'
          and e.source_id in (select id::text from settlements where merchant_id = ${merchantId})`,
    );
    expect(Number(revenue?.balance)).toBe(-fees);
    expect(await unbalancedEntries(db())).toEqual([]);
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('puts a sale that committed after its day was closed into the next day closed', async () => {
    const { customerId } = await h.signUp();
    const { merchantId } = await createMerchant(db(), '늦은 상점');
    await insertPurchase(db(), { customerId, merchantId, totalPrice: 10_000, at: at('2026-10-05', '12:00:00') });
    await withTx(db(), (tx) => closeSettlements(tx, '2026-10-06', h.clock.now()));
    // A final that began before midnight and committed after the close.
    const late = await insertPurchase(db(), {
      customerId,
      merchantId,
      totalPrice: 20_000,
      at: at('2026-10-05', '23:59:59'),
    });
    await withTx(db(), (tx) => closeSettlements(tx, '2026-10-07', h.clock.now()));
    const rows = await settlementsOf(merchantId);
    expect(rows.map((r) => [r.businessDate, r.sales])).toEqual([
      ['2026-10-05', 10_000],
      ['2026-10-06', 20_000],
    ]);
    const [line] = await db().select().from(settlementLines).where(eq(settlementLines.paymentId, late));
    expect(line?.settlementId).toBe(rows[1]?.id);
  });
});

/** A merchant with one settlement due, its account set by an admin and verified by risk through the console. */
async function payableMerchant(name: string, amount = 100_000) {
  const { customerId } = await h.signUp();
  const merchant = await createMerchant(db(), name);
  await insertPurchase(db(), {
    customerId,
    merchantId: merchant.merchantId,
    totalPrice: amount,
    at: at('2026-11-02', '12:00:00'),
  });
  await withTx(db(), (tx) => closeSettlements(tx, '2026-11-03', h.clock.now()));
  const account = `55${String(merchant.merchantId).padStart(11, '0')}`;
  const admin = await signedInOperator(h, 'ADMIN');
  const set = await h.app.inject({
    method: 'POST',
    url: `/api/ops/merchants/${merchant.merchantId}/settlement-account`,
    headers: admin.auth,
    payload: { bank: '신한', account, reason: '통장 사본 확인' },
  });
  expect(set.statusCode).toBe(200);
  const verify = (auth: Record<string, string>) =>
    h.app.inject({
      method: 'POST',
      url: `/api/ops/merchants/${merchant.merchantId}/settlement-account/verify`,
      headers: auth,
      payload: { reason: '예금주 확인' },
    });
  // Four eyes: the admin who set the account cannot verify it.
  expect((await verify(admin.auth)).json().code).toBe('SAME_STAFF_VERIFIES');
  expect((await verify((await signedInOperator(h, 'RISK')).auth)).statusCode).toBe(200);
  const [settlement] = await settlementsOf(merchant.merchantId);
  return { ...merchant, account, settlement: settlement as typeof settlements.$inferSelect };
}

describe('payouts', () => {
  it('waits for a verified account, then pays the net once on its due day and posts it to the ledger', async () => {
    const { customerId } = await h.signUp();
    const unverified = await createMerchant(db(), '미확인 상점');
    await insertPurchase(db(), {
      customerId,
      merchantId: unverified.merchantId,
      totalPrice: 9_000,
      at: at('2026-11-02', '09:00:00'),
    });
    const m = await payableMerchant('지급 상점');
    expect(m.settlement).toMatchObject({ sales: 100_000, fees: 2_500, payout: 97_500, dueDate: '2026-11-03' });
    const bank = createSandboxBank(db(), h.clock);
    h.clock.set(at('2026-11-03', '09:00:00'));
    await payDueSettlements(db(), bank, h.clock);
    const [paid] = await settlementsOf(m.merchantId);
    expect(paid?.status).toBe('PAID');
    expect(await sandboxAccount(db(), '신한', m.account)).toMatchObject({ balance: 1_000_000 + 97_500 });
    // No account, no payout: the other merchant's settlement still waits.
    expect((await settlementsOf(unverified.merchantId))[0]?.status).toBe('PENDING');
    expect((await entriesOf(db(), 'settlement-payout', m.settlement.id)).map((e) => e.lines)).toEqual([
      [
        { kind: 'BANK_CLEARING', owner: 0, amount: -97_500 },
        { kind: 'MERCHANT_PAYABLE', owner: m.merchantId, amount: 97_500 },
      ],
    ]);
    const [event] = await rowsOf<{ payload: { account: string } }>(
      db(),
      sql`select payload from domain_events where type = 'settlement.paid' and (payload->>'settlementId')::int = ${m.settlement.id}`,
    );
    expect(event?.payload.account).toBe(`****${m.account.slice(-4)}`);
    // Paid: a second run moves nothing.
    await payDueSettlements(db(), bank, h.clock);
    expect(await creditsUnder(payoutKeyOf(m.settlement.id))).toHaveLength(1);
    expect(await ledgerMismatches(db())).toEqual([]);
    const balance = await h.app.inject({
      method: 'GET',
      url: '/api/ops/ledger/trial-balance',
      headers: (await signedInOperator(h, 'ADMIN')).auth,
    });
    expect(balance.json().balanced).toBe(true);
  });

  it('pays once when two instances run the payouts at the same moment', async () => {
    const m = await payableMerchant('동시 상점');
    h.clock.set(at('2026-11-04', '09:00:00'));
    const sandbox = createSandboxBank(db(), h.clock);
    let calls = 0;
    let release!: () => void;
    const bothStarted = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The first instance's bank call waits until the second instance has run its own pass.
    const slowBank: BankGateway = {
      ...sandbox,
      credit: async (request) => {
        calls++;
        await bothStarted;
        return sandbox.credit(request);
      },
    };
    const first = payDueSettlements(db(), slowBank, h.clock);
    // The claim is taken before the bank is called: wait for it, not for time.
    await expect.poll(() => calls).toBe(1);
    const second = await payDueSettlements(db(), slowBank, h.clock);
    release();
    await first;
    expect(second.paid).toBe(0);
    expect(calls).toBe(1);
    expect(await creditsUnder(payoutKeyOf(m.settlement.id))).toHaveLength(1);
    expect((await settlementsOf(m.merchantId))[0]?.status).toBe('PAID');
  });

  it('a crash between the bank answer and our record pays once: the retry asks again with the same key', async () => {
    const m = await payableMerchant('중단 상점');
    h.clock.set(at('2026-11-05', '09:00:00'));
    const sandbox = createSandboxBank(db(), h.clock);
    const dying: BankGateway = {
      ...sandbox,
      credit: async (request) => {
        await sandbox.credit(request);
        throw new Error('the process died before recording the answer');
      },
    };
    await expect(payDueSettlements(db(), dying, h.clock)).rejects.toThrow('process died');
    expect((await settlementsOf(m.merchantId))[0]?.status).toBe('PENDING');
    // Within the lease no one asks again; after it the next run does, with the same key.
    expect((await payDueSettlements(db(), sandbox, h.clock)).paid).toBe(0);
    h.clock.advance((PAYOUT_RULES.leaseMinutes + 1) * 60_000);
    expect((await payDueSettlements(db(), sandbox, h.clock)).paid).toBe(1);
    expect(await creditsUnder(payoutKeyOf(m.settlement.id))).toHaveLength(1);
    expect(await sandboxAccount(db(), '신한', m.account)).toMatchObject({ balance: 1_000_000 + 97_500 });
    expect(await entriesOf(db(), 'settlement-payout', m.settlement.id)).toHaveLength(1);
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('retries a payout the bank could not make, later, with the same key', async () => {
    const m = await payableMerchant('재시도 상점');
    h.clock.set(at('2026-11-06', '09:00:00'));
    const sandbox = createSandboxBank(db(), h.clock);
    const down: BankGateway = { ...sandbox, credit: async () => 'unavailable' };
    expect((await payDueSettlements(db(), down, h.clock)).retrying).toBeGreaterThanOrEqual(1);
    expect((await settlementsOf(m.merchantId))[0]).toMatchObject({ status: 'PENDING', lastResult: 'unavailable' });
    expect((await payDueSettlements(db(), sandbox, h.clock)).paid).toBe(0);
    h.clock.advance(PAYOUT_RULES.retryMinutes.unavailable * 60_000);
    await payDueSettlements(db(), sandbox, h.clock);
    expect((await settlementsOf(m.merchantId))[0]).toMatchObject({ status: 'PAID', attempts: 2 });
  });

  it('holds a merchant’s payouts with a reason until risk releases them, audited', async () => {
    const m = await payableMerchant('보류 상점');
    h.clock.set(at('2026-11-07', '09:00:00'));
    const bank = createSandboxBank(db(), h.clock);
    const risk = await signedInOperator(h, 'RISK');
    const call = (path: string, auth: Record<string, string>) =>
      h.app.inject({
        method: 'POST',
        url: `/api/ops/merchants/${m.merchantId}/${path}`,
        headers: auth,
        payload: { reason: '부정 거래 의심' },
      });
    expect((await call('payout-hold', (await signedInOperator(h, 'SUPPORT')).auth)).statusCode).toBe(403);
    expect((await call('payout-hold', risk.auth)).statusCode).toBe(200);
    expect((await call('payout-hold', risk.auth)).json().code).toBe('PAYOUTS_HELD');
    await payDueSettlements(db(), bank, h.clock);
    expect((await settlementsOf(m.merchantId))[0]?.status).toBe('PENDING');
    const view = await h.app.inject({
      method: 'GET',
      url: `/api/ops/merchants/${m.merchantId}/settlement`,
      headers: risk.auth,
    });
    expect(view.json()).toMatchObject({
      feeBps: 250,
      cycleDays: 1,
      account: { bank: '신한은행', account: `****${m.account.slice(-4)}`, verified: true },
      payable: 97_500,
      hold: { reason: '부정 거래 의심', heldBy: risk.staffId },
    });
    expect((await call('payout-release', risk.auth)).statusCode).toBe(200);
    await payDueSettlements(db(), bank, h.clock);
    expect((await settlementsOf(m.merchantId))[0]?.status).toBe('PAID');
    const audit = await db()
      .select({ action: auditLog.action, staffId: auditLog.staffId })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'merchant'), eq(auditLog.targetId, String(m.merchantId))))
      .orderBy(asc(auditLog.id));
    expect(audit.map((a) => a.action)).toEqual([
      'merchant.settlement-account',
      'merchant.settlement-account-verify',
      'merchant.payout-hold',
      'merchant.payout-release',
    ]);
  });

  it('refuses to change a paid settlement or its amounts, and to remove one', async () => {
    const m = await payableMerchant('불변 상점');
    const [open] = await settlementsOf(m.merchantId);
    const refused = (statement: ReturnType<typeof sql>) =>
      db()
        .execute(statement)
        .then(
          () => 'ok',
          (error: { cause?: { code?: string } }) => error.cause?.code,
        );
    expect(await refused(sql`update settlements set net = net + 1, payout = payout + 1 where id = ${open?.id}`)).toBe(
      '42501',
    );
    h.clock.set(at('2026-11-08', '09:00:00'));
    await payDueSettlements(db(), createSandboxBank(db(), h.clock), h.clock);
    expect((await settlementsOf(m.merchantId))[0]?.status).toBe('PAID');
    expect(await refused(sql`update settlements set status = 'PENDING', paid_at = null where id = ${open?.id}`)).toBe(
      '42501',
    );
    expect(await refused(sql`delete from settlements where id = ${open?.id}`)).toBe('42501');
    expect(await refused(sql`delete from settlement_lines where settlement_id = ${open?.id}`)).toBe('42501');
  });
});

describe('terms and the merchant’s own reads', () => {
  it('an admin sets the fee and cycle (audited); the next day is settled on them', async () => {
    const { customerId } = await h.signUp();
    const m = await createMerchant(db(), '조건 상점');
    const admin = await signedInOperator(h, 'ADMIN');
    const set = (auth: Record<string, string>) =>
      h.app.inject({
        method: 'POST',
        url: `/api/ops/merchants/${m.merchantId}/settlement-terms`,
        headers: auth,
        payload: { feeBps: 199, cycleDays: 2, reason: '계약 갱신' },
      });
    expect((await set((await signedInOperator(h, 'RISK')).auth)).statusCode).toBe(403);
    expect((await set(admin.auth)).statusCode).toBe(200);
    await insertPurchase(db(), {
      customerId,
      merchantId: m.merchantId,
      totalPrice: 12_345,
      at: at('2026-10-02', '15:00:00'),
    });
    await withTx(db(), (tx) => closeSettlements(tx, '2026-10-03', h.clock.now()));
    // 1.99 % of 12,345 is 245.66: floored to 245. Friday + 2 business days skips 10/3–10/5 (개천절 대체공휴일).
    expect((await settlementsOf(m.merchantId))[0]).toMatchObject({ feeBps: 199, fees: 245, dueDate: '2026-10-07' });
    const [audit] = await db().select().from(auditLog).where(eq(auditLog.action, 'merchant.settlement-terms'));
    expect(audit).toMatchObject({ before: { feeBps: 250, cycleDays: 1 }, after: { feeBps: 199, cycleDays: 2 } });
  });

  it('a merchant lists and reads its own settlements and downloads one as CSV, never another’s', async () => {
    const { customerId } = await h.signUp();
    const mine = await createMerchant(db(), '읽는 상점');
    const other = await createMerchant(db(), '남의 상점');
    for (const merchantId of [mine.merchantId, other.merchantId]) {
      await insertPurchase(db(), {
        customerId,
        merchantId,
        totalPrice: 30_000,
        requestName: '아메리카노, "샷 추가"',
        at: at('2026-10-20', '10:00:00'),
      });
    }
    await withTx(db(), (tx) => closeSettlements(tx, '2026-10-21', h.clock.now()));
    const [theirs] = await settlementsOf(other.merchantId);
    const list = await h.app.inject({ method: 'GET', url: '/api/merchant/settlements', headers: mine.headers });
    expect(list.statusCode).toBe(200);
    const [item] = list.json().items;
    expect(item).toMatchObject({ date: '2026-10-20', sales: 30_000, fees: 750, net: 29_250, status: 'PENDING' });
    const detail = await h.app.inject({
      method: 'GET',
      url: `/api/merchant/settlements/${item.settlementId}`,
      headers: mine.headers,
    });
    expect(detail.json().lines).toEqual([expect.objectContaining({ kind: 'SALE', amount: 30_000, fee: 750 })]);
    const csv = await h.app.inject({
      method: 'GET',
      url: `/api/merchant/settlements/${item.settlementId}/csv`,
      headers: mine.headers,
    });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(csv.body).toContain('결제,');
    expect(csv.body).toContain('"아메리카노, ""샷 추가"""');
    expect(csv.body).toContain('정산 금액,29250');
    // Another merchant's settlement is not found, like a missing one; no key is refused.
    for (const url of [`/api/merchant/settlements/${theirs?.id}`, `/api/merchant/settlements/${theirs?.id}/csv`]) {
      expect((await h.app.inject({ method: 'GET', url, headers: mine.headers })).statusCode).toBe(404);
    }
    expect((await h.app.inject({ method: 'GET', url: '/api/merchant/settlements' })).statusCode).toBe(401);
  });
});
