import { BILL_MSG } from '@ohgood/contract/bill-messages';
import type { BillStatus, PaymentInfo } from '@ohgood/contract/bills';
import { kstStartOfDay } from '@ohgood/contract/kst';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { customers, jobRuns, statements } from '../db/schema';
import { bearer, createHarness, type Harness } from '../test/harness';
import { noticesAfterDispatch } from '../test/notice-helpers';
import { insertPurchase } from '../test/purchase-fixture';
import { parseJobArgs } from './cli-args';
import { catchUp, runJob, scheduledRuns } from './runner';

let h: Harness;
beforeEach(async () => {
  h = await createHarness({ now: '2026-11-01T03:00:00Z' });
});
afterEach(() => h.close());

const kst = (date: string, hh = 12, mm = 0) => new Date(kstStartOfDay(date).getTime() + (hh * 60 + mm) * 60_000);

/** A customer signed up at `at` (tokens are issued against the clock, valid 12 h). */
async function customerAt(at: Date, gradePoint = 0) {
  h.clock.set(at);
  const signed = await h.signUp();
  await h.database.db.update(customers).set({ gradePoint }).where(eq(customers.id, signed.customerId));
  return signed;
}
async function token(customerId: number): Promise<string> {
  const [row] = await h.database.db.select().from(customers).where(eq(customers.id, customerId));
  const res = await h.app.inject({ method: 'POST', url: '/auth', payload: { emailId: row?.email, pwd: 'password1!' } });
  return res.json().accessToken;
}
async function customer(id: number) {
  const [row] = await h.database.db.select().from(customers).where(eq(customers.id, id));
  if (!row) throw new Error('no customer');
  return row;
}
async function status(t: string): Promise<BillStatus> {
  return (await h.app.inject({ method: 'GET', url: '/api/payment/statements', headers: bearer(t) })).json().data;
}
async function info(t: string): Promise<PaymentInfo> {
  return (await h.app.inject({ method: 'GET', url: '/api/payment/info', headers: bearer(t) })).json();
}
const repay = (t: string, ids: number[]) =>
  h.app.inject({ method: 'POST', url: '/api/payment/immediately', headers: bearer(t), payload: ids });
/** The scheduler's moment: 00:05 KST on `date`. */
async function runAt(job: 'auto-extension' | 'overdue', date: string) {
  h.clock.set(kst(date, 0, 5));
  return runJob(h.database.db, h.clock, job);
}

describe('a month of a customer’s life', () => {
  it('buy → statement → auto-extension → overdue and suspension → repay → restored', async () => {
    const { customerId } = await customerAt(kst('2026-11-05'), 30); // silver: 150,000 limit
    const nov1 = await insertPurchase(h.database.db, { customerId, totalPrice: 40_000, at: kst('2026-11-05') });
    const nov2 = await insertPurchase(h.database.db, { customerId, totalPrice: 15_000, at: kst('2026-11-20') });
    const dec = await insertPurchase(h.database.db, { customerId, totalPrice: 10_000, at: kst('2026-12-10') });

    // 16 December: November's statement was not paid by the 15th → extended automatically, −5.
    expect(await runAt('auto-extension', '2026-12-16')).toMatchObject({
      ran: true,
      period: '2026-12',
      result: { extended: 1 },
    });
    let t = await token(customerId);
    expect(await info(t)).toMatchObject({ auto: true, extension: true, balance: 150_000 - 10_000 });
    expect((await status(t)).statements[0]).toMatchObject({
      month: '2026-11',
      status: 'EXTENDED',
      dueDate: '2026-12-31',
    });
    const manual = await h.app.inject({ method: 'POST', url: '/api/payment/extension', headers: bearer(t) });
    expect(manual.statusCode).toBe(409);
    expect(manual.json().message).toBe(BILL_MSG.alreadyExtended);
    expect((await customer(customerId)).gradePoint).toBe(25);

    // Run twice: the second run changes nothing.
    expect(await runAt('auto-extension', '2026-12-16')).toMatchObject({ ran: false, result: null });
    expect((await customer(customerId)).gradePoint).toBe(25);

    // 1 January: the extended due date (31 December) has passed → OVERDUE, −20, suspended.
    expect(await runAt('overdue', '2027-01-01')).toMatchObject({
      ran: true,
      period: '2027-01',
      result: { overdue: 1, suspended: 1 },
    });
    expect(await customer(customerId)).toMatchObject({ gradePoint: 5, suspended: true });
    t = await token(customerId);
    const suspended = await status(t);
    expect(suspended).toMatchObject({ suspended: true, overdueAmount: 55_000 });
    expect(suspended.statements.map((s) => [s.month, s.status])).toEqual([
      ['2026-11', 'OVERDUE'],
      ['2026-12', 'DUE'],
    ]);
    expect((await runAt('overdue', '2027-01-01')).ran).toBe(false);
    expect((await customer(customerId)).gradePoint).toBe(5);

    // 16 January: December's statement is auto-extended too; grade points never go below 0.
    expect((await runAt('auto-extension', '2027-01-16')).result).toEqual({ extended: 1 });
    expect((await customer(customerId)).gradePoint).toBe(0);

    // Repaying: oldest first; the overdue statement earns no grade points but lifts the suspension.
    h.clock.set(kst('2027-01-20'));
    t = await token(customerId);
    expect((await repay(t, [dec])).statusCode).toBe(422);
    const restore = await repay(t, [nov1, nov2]);
    expect(restore.statusCode).toBe(200);
    expect(restore.json().data).toMatchObject({ amount: 55_000, suspended: false, gradePoint: 0 });
    expect(await customer(customerId)).toMatchObject({ suspended: false, gradePoint: 0, repaidRemainder: 0 });
    const [novStatement] = await h.database.db.select().from(statements).where(eq(statements.month, '2026-11'));
    expect(novStatement?.paidAt).not.toBeNull();
    expect(novStatement?.overdueAt).not.toBeNull();
    expect(await status(t)).toMatchObject({ suspended: false, overdueAmount: 0 });

    // December's statement, extended to 31 January, is still on time on the 20th: 10,000 KRW → +1.
    expect((await repay(t, [dec])).json().data).toMatchObject({ gradePoint: 1, suspended: false });
    expect((await info(t)).unpaidBills).toEqual([]);
  });
});

describe('notices name the points actually taken', () => {
  it('an auto-extension of a customer with 0 grade points takes none and says none; an extension of 3 says 3, an overdue of 0 says none', async () => {
    const broke = await customerAt(kst('2026-11-05'), 0);
    const few = await customerAt(kst('2026-11-05'), 3);
    for (const { customerId } of [broke, few]) {
      await insertPurchase(h.database.db, { customerId, totalPrice: 5_000, at: kst('2026-11-05') });
    }
    await runAt('auto-extension', '2026-12-16');
    const extended = (await noticesAfterDispatch(h, broke.customerId)).find((n) => n.kind === 'extension_applied');
    expect(extended?.body).toBe('11월 청구서가 12월 31일까지 자동 연장됐어요.');
    expect((await customer(broke.customerId)).gradePoint).toBe(0);

    // The one with 3 lost them all to the extension; the one with 0 still has 0 when it goes overdue.
    await runAt('overdue', '2027-01-01');
    const docked = (await noticesAfterDispatch(h, few.customerId)).filter((n) => n.kind === 'extension_applied');
    expect(docked.map((n) => n.body)).toEqual([
      '11월 청구서가 12월 31일까지 자동 연장됐어요. 등급 포인트 3점이 차감됐어요.',
    ]);
    const late = (await noticesAfterDispatch(h, broke.customerId)).find(
      (n) => n.kind === 'overdue' && n.title === '연체 안내',
    );
    expect(late?.body).toBe('11월 청구서 5,000원이 연체됐어요. 납부하면 바로 결제를 다시 쓸 수 있어요.');
  });
});

describe('February and the year end', () => {
  it('a January statement extended to 28 February is on time that day and overdue on 1 March', async () => {
    const early = await customerAt(kst('2027-01-10'));
    const late = await customerAt(kst('2027-01-10'));
    const earlyLine = await insertPurchase(h.database.db, {
      customerId: early.customerId,
      totalPrice: 20_000,
      at: kst('2027-01-10'),
    });
    await insertPurchase(h.database.db, { customerId: late.customerId, totalPrice: 30_000, at: kst('2027-01-11') });
    h.clock.set(kst('2027-02-10'));
    for (const c of [early, late]) {
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/payment/extension',
        headers: bearer(await token(c.customerId)),
      });
      expect(res.json().data).toEqual({ month: '2027-01', dueDate: '2027-02-28' });
    }
    // Manually extended statements are not auto-extended (no penalty).
    expect((await runAt('auto-extension', '2027-02-16')).result).toEqual({ extended: 0 });

    h.clock.set(kst('2027-02-28', 23, 59));
    const paid = await repay(await token(early.customerId), [earlyLine]);
    expect(paid.json().data.gradePoint).toBe(2);

    expect((await runAt('overdue', '2027-03-01')).result).toEqual({ overdue: 1, suspended: 1 });
    expect(await customer(late.customerId)).toMatchObject({ suspended: true, gradePoint: 0 });
    expect(await customer(early.customerId)).toMatchObject({ suspended: false, gradePoint: 2 });
  });

  it('a December statement is auto-extended on 16 January (period 2027-01) and due on 31 January', async () => {
    const { customerId } = await customerAt(kst('2026-12-24'), 50);
    await insertPurchase(h.database.db, { customerId, totalPrice: 9_000, at: kst('2026-12-24') });
    // Not yet on the 15th: the statement is still within its original due date.
    await expect(runAt('auto-extension', '2027-01-15')).rejects.toThrow(/16th/);
    expect(await h.database.db.select().from(jobRuns)).toEqual([]);
    expect(await runAt('auto-extension', '2027-01-16')).toMatchObject({
      ran: true,
      period: '2027-01',
      result: { extended: 1 },
    });
    const s = await status(await token(customerId));
    expect(s.statements[0]).toMatchObject({
      month: '2026-12',
      extension: 'AUTO',
      dueDate: '2027-01-31',
      status: 'EXTENDED',
    });
    expect((await customer(customerId)).gradePoint).toBe(45);
    // On 1 February nothing of December remains payable on time.
    expect((await runAt('overdue', '2027-02-01')).result).toEqual({ overdue: 1, suspended: 1 });
  });
});

describe('once per cluster', () => {
  it('two instances starting the same run at once: exactly one runs it', async () => {
    const { customerId } = await customerAt(kst('2026-11-05'), 40);
    await insertPurchase(h.database.db, { customerId, totalPrice: 5_000, at: kst('2026-11-05') });
    h.clock.set(kst('2026-12-16', 0, 5));
    // On PostgreSQL these are separate pooled connections, as two server processes would be.
    const outcomes = await Promise.all([
      runJob(h.database.db, h.clock, 'auto-extension'),
      runJob(h.database.db, h.clock, 'auto-extension'),
      runJob(h.database.db, h.clock, 'auto-extension'),
    ]);
    expect(outcomes.filter((o) => o.ran)).toHaveLength(1);
    expect((await customer(customerId)).gradePoint).toBe(35);
    const runs = await h.database.db.select().from(jobRuns);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ job: 'auto-extension', period: '2026-12', result: { extended: 1 } });
    expect(runs[0]?.finishedAt).not.toBeNull();
  });

  it('catch-up runs every missed period oldest first: each statement auto-extended before it goes overdue', async () => {
    const { customerId } = await customerAt(kst('2026-08-10'), 60);
    await insertPurchase(h.database.db, { customerId, totalPrice: 7_000, at: kst('2026-08-10') });
    await insertPurchase(h.database.db, { customerId, totalPrice: 8_000, at: kst('2026-10-10') });
    // Down from August until 20 December: four months of runs were missed.
    h.clock.set(kst('2026-12-20', 9, 0));
    const first = await catchUp(h.database.db, h.clock);
    expect(first.map((o) => [o.job, o.period, o.ran])).toEqual([
      ['overdue', '2026-09', true],
      ['statement-issue', '2026-09', true],
      ['auto-extension', '2026-09', true],
      ['overdue', '2026-10', true],
      ['statement-issue', '2026-10', true],
      ['auto-extension', '2026-10', true],
      ['overdue', '2026-11', true],
      ['statement-issue', '2026-11', true],
      ['auto-extension', '2026-11', true],
      ['overdue', '2026-12', true],
      ['statement-issue', '2026-12', true],
      ['auto-extension', '2026-12', true],
      // The daily jobs never ran on this database: only their latest day, in the order of their instants:
      // autopay (10:00) of yesterday, then today's settlement (00:30), reconciliation (01:30), prune (03:30) and
      // reminders (08:00), as it is 09:00.
      ['autopay', '2026-12-19', true],
      ['settlement', '2026-12-20', true],
      ['reconciliation', '2026-12-20', true],
      ['prune', '2026-12-20', true],
      ['reminders', '2026-12-20', true],
    ]);
    // August: auto-extended on 16 September (−5), overdue on 1 October (−20). October: auto-extended on
    // 16 November (−5), overdue on 1 December (−20). Running only the latest periods would miss both −5s.
    const rows = await h.database.db.select().from(statements).where(eq(statements.customerId, customerId));
    const byMonth = Object.fromEntries(rows.map((r) => [r.month, r]));
    expect(byMonth['2026-08']).toMatchObject({ extension: 'AUTO', overdueAt: kst('2026-10-01', 0, 5) });
    expect(byMonth['2026-08']?.extendedAt).toEqual(kst('2026-09-16', 0, 5));
    expect(byMonth['2026-10']).toMatchObject({ extension: 'AUTO', overdueAt: kst('2026-12-01', 0, 5) });
    expect(await customer(customerId)).toMatchObject({ gradePoint: 10, suspended: true });
    const second = await catchUp(h.database.db, h.clock);
    expect(second).toEqual([]);
    expect((await customer(customerId)).gradePoint).toBe(10);
    expect(await h.database.db.select().from(jobRuns)).toHaveLength(17);
  });

  it('lists the scheduled KST runs up to now, the 1st before the 16th', () => {
    expect(scheduledRuns('2026-12', kst('2027-01-01', 0, 4))).toEqual([
      { job: 'overdue', date: '2026-12-01' },
      { job: 'statement-issue', date: '2026-12-01' },
      { job: 'auto-extension', date: '2026-12-16' },
    ]);
    expect(scheduledRuns('2026-12', kst('2027-01-01', 0, 5)).at(-1)).toEqual({
      job: 'statement-issue',
      date: '2027-01-01',
    });
    // 15:05 UTC on 15 December is 00:05 KST on the 16th.
    expect(scheduledRuns('2026-12', new Date('2026-12-15T15:05:00Z')).at(-1)?.date).toBe('2026-12-16');
    expect(scheduledRuns('2026-12', new Date('2026-12-15T15:04:00Z')).at(-1)?.date).toBe('2026-12-01');
  });

  it('refuses an impossible date instead of marking its month done', async () => {
    await expect(runJob(h.database.db, h.clock, 'overdue', '2026-09-99')).rejects.toThrow(/not a calendar date/);
    expect(await h.database.db.select().from(jobRuns)).toEqual([]);
  });
});

describe('jobs CLI arguments', () => {
  it('rejects impossible dates, unknown jobs and future dates without --force', () => {
    expect(() => parseJobArgs(['overdue', '--date', '2026-09-99'], '2026-11-22')).toThrow(/not a calendar date/);
    expect(() => parseJobArgs(['overdue', '--date', '2026-02-30'], '2026-11-22')).toThrow(/not a calendar date/);
    expect(() => parseJobArgs(['overdue', '--date', '2026-9-1'], '2026-11-22')).toThrow(/not a calendar date/);
    expect(() => parseJobArgs(['nightly'], '2026-11-22')).toThrow(/usage/);
    expect(() => parseJobArgs(['overdue', '--date', '2026-12-01'], '2026-11-22')).toThrow(/future/);
    expect(parseJobArgs(['overdue', '--date', '2026-12-01', '--force'], '2026-11-22')).toEqual({
      job: 'overdue',
      date: '2026-12-01',
    });
    expect(parseJobArgs(['auto-extension'], '2026-11-22')).toEqual({ job: 'auto-extension', date: undefined });
  });
});
