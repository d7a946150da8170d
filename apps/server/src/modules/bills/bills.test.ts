import { BILL_MSG } from '@ohgood/contract/bill-messages';
import type { BillStatus, PaymentInfo } from '@ohgood/contract/bills';
import { kstStartOfDay } from '@ohgood/contract/kst';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { customers, purchases, repayments, statements } from '../../db/schema';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { insertPurchase } from '../../test/purchase-fixture';
import { dueDate } from './statements';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ now: '2026-11-10T03:00:00Z' });
});
afterAll(() => h.close());

/** An instant on a KST calendar day at hh:mm KST. */
const kst = (date: string, hh = 12, mm = 0) => new Date(kstStartOfDay(date).getTime() + (hh * 60 + mm) * 60_000);

async function info(token: string): Promise<PaymentInfo> {
  const res = await h.app.inject({ method: 'GET', url: '/api/payment/info', headers: bearer(token) });
  expect(res.statusCode).toBe(200);
  return res.json();
}
async function status(token: string): Promise<BillStatus> {
  const res = await h.app.inject({ method: 'GET', url: '/api/payment/statements', headers: bearer(token) });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}
const extend = (token: string) =>
  h.app.inject({ method: 'POST', url: '/api/payment/extension', headers: bearer(token) });
const repay = (token: string, ids: number[]) =>
  h.app.inject({ method: 'POST', url: '/api/payment/immediately', headers: bearer(token), payload: ids });

async function customer(id: number) {
  const [row] = await h.database.db.select().from(customers).where(eq(customers.id, id));
  if (!row) throw new Error('no customer');
  return row;
}
async function buy(
  customerId: number,
  totalPrice: number,
  at: Date,
  extra: { pointUsed?: number; requestName?: string } = {},
) {
  return insertPurchase(h.database.db, { customerId, totalPrice, at, ...extra });
}

beforeEach(() => h.clock.set('2026-11-10T03:00:00Z'));

/** Tokens live 12 h: sign up at the instant the test acts. */
async function signUpAt(at: Date) {
  h.clock.set(at);
  return h.signUp();
}

describe('due dates (B1)', () => {
  it('is the 15th of the next month, or its last day when extended, across year ends and February', () => {
    expect(dueDate('2026-11', false)).toBe('2026-12-15');
    expect(dueDate('2026-11', true)).toBe('2026-12-31');
    expect(dueDate('2026-12', false)).toBe('2027-01-15');
    expect(dueDate('2026-12', true)).toBe('2027-01-31');
    expect(dueDate('2027-01', true)).toBe('2027-02-28');
    expect(dueDate('2028-01', true)).toBe('2028-02-29');
    expect(dueDate('2027-03', true)).toBe('2027-04-30');
  });
});

describe('GET /api/payment/info', () => {
  it('returns exactly the contract fields, lines grouped by KST month oldest first, ascending by date', async () => {
    const { token, customerId } = await h.signUp({ account: '98765432101', accountName: '신한' });
    // 23:59 on 31 Oct KST is October; one minute later is November, although both are 31 Oct in UTC.
    const oct = await buy(customerId, 12_000, kst('2026-10-31', 23, 59), { requestName: '10월 마지막' });
    const nov2 = await buy(customerId, 3_000, kst('2026-11-05'), { pointUsed: 500 });
    const nov1 = await buy(customerId, 8_000, kst('2026-11-01', 0, 0), { requestName: '11월 첫 결제' });
    const body = await info(token);
    expect(Object.keys(body).sort()).toEqual(
      [
        'account',
        'accountName',
        'auto',
        'balance',
        'customerId',
        'extension',
        'gradeName',
        'limitPrice',
        'pointPercentage',
        'unpaidBills',
      ].sort(),
    );
    expect(body).toMatchObject({
      customerId,
      // One masking rule: the full number never leaves the server.
      account: '****2101',
      accountName: '신한',
      auto: false,
      extension: false,
      gradeName: 'bronze',
      pointPercentage: 0.2,
      limitPrice: 100_000,
      // November owes 8,000 + 2,500; October's line does not use November's limit.
      balance: 100_000 - 8_000 - 2_500,
    });
    expect(body.unpaidBills.map((month) => month.map((line) => line.paymentId))).toEqual([[oct], [nov1, nov2]]);
    expect(body.unpaidBills[0]?.[0]).toEqual({
      paymentId: oct,
      date: '2026-10-31T23:59:00+09:00',
      requestName: '10월 마지막',
      price: 12_000,
      totalPrice: 12_000,
      point: 0,
    });
    expect(body.unpaidBills[1]?.[1]).toMatchObject({ price: 2_500, totalPrice: 3_000, point: 500 });
  });

  it('frees the limit at the KST month boundary, December into January included', async () => {
    const { token, customerId } = await signUpAt(kst('2026-12-31', 23, 30));
    await buy(customerId, 40_000, h.clock.now());
    expect((await info(token)).balance).toBe(60_000);
    h.clock.set(kst('2026-12-31', 23, 59));
    expect((await info(token)).balance).toBe(60_000);
    h.clock.set(kst('2027-01-01', 0, 0));
    const january = await info(token);
    expect(january.balance).toBe(100_000);
    const s = await status(token);
    expect(s.statements).toEqual([
      { month: '2026-12', dueDate: '2027-01-15', extension: null, status: 'DUE', amount: 40_000, count: 1 },
    ]);
  });

  it('needs a token', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/payment/info' });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/payment/extension (B5)', () => {
  it('refuses when there is nothing to extend or only the current month is unpaid', async () => {
    const { token, customerId } = await h.signUp();
    let res = await extend(token);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      success: false,
      code: 'EXTENSION_NOT_ALLOWED',
      message: BILL_MSG.extensionNotIssued,
    });
    await buy(customerId, 5_000, kst('2026-11-03'));
    res = await extend(token);
    expect(res.statusCode).toBe(422);
    // The refusal names its rule: this month's use is not billed yet.
    expect(res.json().message).toBe(BILL_MSG.extensionNotIssued);
  });

  it('extends the oldest previous-month statement once, to the last day of the next month', async () => {
    // The last minute of the original due date.
    const { token, customerId } = await signUpAt(kst('2026-11-15', 23, 59));
    await buy(customerId, 20_000, kst('2026-10-20'));
    await buy(customerId, 5_000, kst('2026-11-02'));
    const res = await extend(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: BILL_MSG.extensionSuccess,
      data: { month: '2026-10', dueDate: '2026-11-30' },
    });
    expect(await info(token)).toMatchObject({ extension: true, auto: false });
    expect((await status(token)).statements[0]).toMatchObject({
      month: '2026-10',
      status: 'EXTENDED',
      extension: 'MANUAL',
    });
    const again = await extend(token);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'ALREADY_EXTENDED', message: BILL_MSG.alreadyExtended });
  });

  it('two concurrent requests: one extends, the other is told it is already extended', async () => {
    const { token, customerId } = await signUpAt(kst('2026-11-12'));
    await buy(customerId, 20_000, kst('2026-10-20'));
    const results = await Promise.all([extend(token), extend(token), extend(token)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    const [row] = await h.database.db.select().from(statements).where(eq(statements.customerId, customerId));
    expect(row?.extension).toBe('MANUAL');
  });

  it('refuses after the original due date has passed', async () => {
    const { token, customerId } = await signUpAt(kst('2026-11-16', 0, 0));
    await buy(customerId, 20_000, kst('2026-10-20'));
    const res = await extend(token);
    expect(res.statusCode).toBe(422);
    const [row] = await h.database.db.select().from(statements).where(eq(statements.customerId, customerId));
    expect(row?.extension).toBeNull();
  });

  it('refuses an overdue statement', async () => {
    const { token, customerId } = await signUpAt(kst('2026-11-05'));
    await buy(customerId, 20_000, kst('2026-10-20'));
    await h.database.db
      .update(statements)
      .set({ overdueAt: kst('2026-11-01') })
      .where(eq(statements.customerId, customerId));
    const res = await extend(token);
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('EXTENSION_NOT_ALLOWED');
  });
});

describe('POST /api/payment/immediately (B6–B8)', () => {
  it('refuses an empty selection with its message', async () => {
    const { token } = await h.signUp();
    const res = await repay(token, []);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'NO_SELECTION', message: BILL_MSG.noSelection });
  });

  it('pays lines in one immutable record, frees the limit, closes the statement and accrues grade points', async () => {
    const { token, customerId } = await h.signUp({ account: '55544433322', accountName: '우리' });
    const a = await buy(customerId, 18_000, kst('2026-11-02'));
    const b = await buy(customerId, 9_000, kst('2026-11-04'), { pointUsed: 2_000 });
    expect((await info(token)).balance).toBe(100_000 - 25_000);
    const res = await repay(token, [b, a, a]);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe(BILL_MSG.repaySuccess);
    expect(body.data).toMatchObject({ amount: 25_000, paymentIds: [a, b], gradePoint: 2, suspended: false });
    const after = await info(token);
    expect(after.balance).toBe(100_000);
    expect(after.unpaidBills).toEqual([]);
    const [record] = await h.database.db.select().from(repayments).where(eq(repayments.customerId, customerId));
    expect(record).toMatchObject({ amount: 25_000, purchaseIds: [a, b], account: '55544433322', accountName: '우리' });
    const lines = await h.database.db
      .select()
      .from(purchases)
      .where(inArray(purchases.id, [a, b]));
    expect(lines.every((line) => line.status === 'PAID' && line.repaymentId === record?.id)).toBe(true);
    const [statement] = await h.database.db.select().from(statements).where(eq(statements.customerId, customerId));
    expect(statement?.paidAt).not.toBeNull();
    expect((await customer(customerId)).repaidRemainder).toBe(5_000);
  });

  it('earns the same grade points line by line as in one batch (the remainder carries)', async () => {
    const batch = await h.signUp();
    const single = await h.signUp();
    const prices = [7_000, 7_000, 7_000, 9_000];
    const batchIds: number[] = [];
    const singleIds: number[] = [];
    for (const price of prices) {
      batchIds.push(await buy(batch.customerId, price, kst('2026-11-03')));
      singleIds.push(await buy(single.customerId, price, kst('2026-11-03')));
    }
    expect((await repay(batch.token, batchIds)).statusCode).toBe(200);
    for (const id of singleIds) expect((await repay(single.token, [id])).statusCode).toBe(200);
    const [x, y] = [await customer(batch.customerId), await customer(single.customerId)];
    expect(x.gradePoint).toBe(3);
    expect([y.gradePoint, y.repaidRemainder]).toEqual([x.gradePoint, x.repaidRemainder]);
  });

  it('re-paying a paid line is refused and changes nothing', async () => {
    const { token, customerId } = await h.signUp();
    const id = await buy(customerId, 30_000, kst('2026-11-03'));
    expect((await repay(token, [id])).statusCode).toBe(200);
    const before = await customer(customerId);
    const res = await repay(token, [id]);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('ALREADY_PAID');
    const records = await h.database.db.select().from(repayments).where(eq(repayments.customerId, customerId));
    expect(records).toHaveLength(1);
    expect(await customer(customerId)).toEqual(before);
  });

  it('refuses another customer’s line (IDOR) like a missing one, and changes nothing', async () => {
    const victim = await h.signUp();
    const attacker = await h.signUp();
    const theirs = await buy(victim.customerId, 15_000, kst('2026-11-03'));
    const mine = await buy(attacker.customerId, 1_000, kst('2026-11-03'));
    for (const ids of [[theirs], [mine, theirs], [999_999]]) {
      const res = await repay(attacker.token, ids);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('INVALID_PAYMENT');
    }
    const [line] = await h.database.db.select().from(purchases).where(eq(purchases.id, theirs));
    expect(line?.status).toBe('UNPAID');
    const [own] = await h.database.db.select().from(purchases).where(eq(purchases.id, mine));
    expect(own?.status).toBe('UNPAID');
    expect(await h.database.db.select().from(repayments).where(eq(repayments.customerId, attacker.customerId))).toEqual(
      [],
    );
    // The victim's bills are not visible to the attacker either.
    expect((await info(attacker.token)).unpaidBills.flat().map((l) => l.paymentId)).toEqual([mine]);
  });

  it('also accepts {paymentIds} and refuses ids that are not positive integers', async () => {
    const { token, customerId } = await h.signUp();
    const id = await buy(customerId, 4_000, kst('2026-11-03'));
    const bad = await repay(token, ['x' as unknown as number]);
    expect(bad.statusCode).toBe(400);
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/payment/immediately',
      headers: bearer(token),
      payload: { paymentIds: [id] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.paymentIds).toEqual([id]);
  });

  it('refuses a refunded line', async () => {
    const { token, customerId } = await h.signUp();
    const id = await buy(customerId, 4_000, kst('2026-11-03'));
    await h.database.db
      .update(purchases)
      .set({ status: 'REFUNDED', refundedAt: h.clock.now() })
      .where(eq(purchases.id, id));
    const res = await repay(token, [id]);
    expect(res.statusCode).toBe(409);
    expect((await info(token)).balance).toBe(100_000);
  });

  it('enforces oldest first: older months must be paid in full before newer lines', async () => {
    const { token, customerId } = await h.signUp();
    const oct1 = await buy(customerId, 10_000, kst('2026-10-05'));
    const oct2 = await buy(customerId, 6_000, kst('2026-10-25'));
    const nov = await buy(customerId, 3_000, kst('2026-11-02'));
    for (const ids of [[nov], [oct1, nov]]) {
      const res = await repay(token, ids);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'OLDEST_FIRST', message: BILL_MSG.oldestFirst });
    }
    expect((await info(token)).unpaidBills.flat()).toHaveLength(3);
    // Part of the oldest month is fine; then the rest together with the newer line.
    expect((await repay(token, [oct2])).statusCode).toBe(200);
    expect((await repay(token, [oct1, nov])).statusCode).toBe(200);
    expect((await info(token)).unpaidBills).toEqual([]);
  });

  it('a concurrent duplicate repayment succeeds exactly once', async () => {
    const { token, customerId } = await h.signUp();
    const a = await buy(customerId, 20_000, kst('2026-11-03'));
    const b = await buy(customerId, 5_000, kst('2026-11-04'));
    const results = await Promise.all(Array.from({ length: 6 }, () => repay(token, [a, b])));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409, 409, 409]);
    const records = await h.database.db.select().from(repayments).where(eq(repayments.customerId, customerId));
    expect(records).toHaveLength(1);
    const c = await customer(customerId);
    expect([c.gradePoint, c.repaidRemainder]).toEqual([2, 5_000]);
  });
});

describe('GET /api/dash/me/pay-this-month (B14)', () => {
  it('covers every non-refunded purchase of the current KST month, paid or not, with points earned this month', async () => {
    const { token, customerId } = await signUpAt(kst('2026-11-30', 23, 0));
    await buy(customerId, 9_999, kst('2026-10-31', 23, 59)); // last month: not included
    const paid = await buy(customerId, 12_000, kst('2026-11-01', 0, 0), { requestName: '첫 결제' });
    const unpaid = await buy(customerId, 7_000, kst('2026-11-20'), { pointUsed: 1_000 });
    const refunded = await buy(customerId, 50_000, kst('2026-11-21'));
    await h.database.db.update(purchases).set({ status: 'REFUNDED' }).where(eq(purchases.id, refunded));
    expect((await repay(token, [(await info(token)).unpaidBills[0]?.[0]?.paymentId ?? 0])).statusCode).toBe(200);
    expect((await repay(token, [paid])).statusCode).toBe(200);
    const spin = await h.app.inject({ method: 'POST', url: '/api/checkin/roulette', headers: bearer(token) });
    const prize = spin.json().data.point as number;

    const res = await h.app.inject({ method: 'GET', url: '/api/dash/me/pay-this-month', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    // A bare body: API clients read the original names at the top, beside ours (docs/rules/api.md#A1).
    const data = res.json();
    // The 1,000 points the unpaid line used were credited this month first (the fixture grants them, as a
    // check-in would have): earned this month, and spent.
    expect(data).toMatchObject({
      month: '2026-11',
      sumTotalPrice: 12_000 + 6_000,
      sumPointThisMonth: 1_000 + prize,
      currentPointBalance: prize,
      amount: 12_000 + 6_000,
      pointsThisMonth: 1_000 + prize,
      pointBalance: prize,
    });
    expect(data.items.map((i: { paymentId: number }) => i.paymentId)).toEqual([unpaid, paid]);
    expect(data.items[1]).toEqual({
      paymentId: paid,
      date: '2026-11-01T00:00:00+09:00',
      requestName: '첫 결제',
      totalPrice: 12_000,
      point: 0,
      id: paid,
      merchant: 'GS25',
      amount: 12_000,
    });

    // A minute later it is December in Seoul: a new, empty month.
    h.clock.set(kst('2026-12-01', 0, 0));
    const dec = (
      await h.app.inject({ method: 'GET', url: '/api/dash/me/pay-this-month', headers: bearer(token) })
    ).json();
    expect(dec).toMatchObject({ month: '2026-12', amount: 0, pointsThisMonth: 0, items: [] });
  });
});
