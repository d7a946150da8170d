import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { customers, jobRuns, statements } from '../db/schema';
import { runAutopay } from '../modules/autopay/autopay-job';
import { createSandboxBank, sandboxAccount, setSandboxAccount } from '../modules/bank/sandbox-bank';
import { verifyAutopay } from '../test/autopay-fixture';
import { createHarness, type Harness } from '../test/harness';
import { kstAt, noticeKinds } from '../test/notice-helpers';
import { insertPurchase } from '../test/purchase-fixture';
import { catchUp, type JobOutcome, runJob } from './runner';

/*
 * The calendar after a downtime (docs/rules/bills-and-grades.md#B19): every missed day replayed in the order
 * of its scheduled instants, each day's work in a normal day's order, a missed day's debits before the next
 * day's extension, reminders whose moment passed recorded and not sent, each run once per cluster.
 */
let h: Harness;
beforeEach(async () => {
  h = await createHarness({ now: kstAt('2026-11-05').toISOString() });
});
afterEach(() => h.close());

/** A customer with a November purchase (due 15 December), autopay on or off, 50,000 in the linked account. */
async function customerWithBill(autopay: boolean, account: string, balance = 50_000) {
  h.clock.set(kstAt('2026-11-05'));
  const signed = await h.signUp({ accountName: '국민', account });
  const { customerId } = signed;
  if (autopay) await verifyAutopay(h, signed);
  await h.database.db.update(customers).set({ autopay, gradePoint: 40 }).where(eq(customers.id, customerId));
  await insertPurchase(h.database.db, { customerId, totalPrice: 30_000, at: kstAt('2026-11-10') });
  await setSandboxAccount(h.database.db, '국민', account, { balance }, h.clock.now());
  return customerId;
}

/** The scheduler's catch-up: each missed autopay plan followed by its debits. */
const debits = async (outcome: JobOutcome) => {
  if (outcome.job === 'autopay') await runAutopay(h.database.db, createSandboxBank(h.database.db, h.clock), h.clock);
};

/** Every run up to `at` happened on time (an instance was up until then). */
async function upUntil(at: Date) {
  h.clock.set(at);
  await catchUp(h.database.db, h.clock, debits);
}

/** Each run as 'job@period', in the order it ran. */
const order = (outcomes: JobOutcome[]) => outcomes.map((o) => `${o.job}@${o.period}`);

describe('catch-up after a downtime', () => {
  it('down from the 14th to the 16th: the 15th’s autopay debits before the 16th’s extension, reminders not sent late', async () => {
    const autopaid = await customerWithBill(true, '30000000001');
    const manual = await customerWithBill(false, '30000000002');
    await upUntil(kstAt('2026-12-13', 23, 0));
    const before = { autopaid: await noticeKinds(h, autopaid), manual: await noticeKinds(h, manual) };

    h.clock.set(kstAt('2026-12-16', 9, 0));
    const outcomes = await catchUp(h.database.db, h.clock, debits);
    // Each day's reconciliation (01:30) of the day before comes first in its day.
    expect(order(outcomes)).toEqual([
      'reconciliation@2026-12-14',
      'reminders@2026-12-14',
      'autopay@2026-12-14',
      'reconciliation@2026-12-15',
      'reminders@2026-12-15',
      'autopay@2026-12-15',
      'auto-extension@2026-12',
      // The settlement close runs once, at its latest day: that run closes every day not yet closed.
      'settlement@2026-12-16',
      'reconciliation@2026-12-16',
      'prune@2026-12-16',
      'reminders@2026-12-16',
    ]);
    expect(outcomes.filter((o) => o.job === 'reminders').map((o) => o.result)).toEqual([
      { skipped: 'late' },
      { skipped: 'late' },
      expect.not.objectContaining({ skipped: 'late' }),
    ]);

    // The autopay customer was debited on the 15th's replay and never extended or docked.
    expect((await sandboxAccount(h.database.db, '국민', '30000000001')).balance).toBe(20_000);
    const [paid] = await h.database.db.select().from(statements).where(eq(statements.customerId, autopaid));
    expect(paid?.extension).toBeNull();
    expect((await h.database.db.select().from(customers).where(eq(customers.id, autopaid)))[0]?.gradePoint).toBe(40);
    const autopaidNew = (await noticeKinds(h, autopaid)).slice(before.autopaid.length);
    expect(autopaidNew).toEqual(['autopay_succeeded']);

    // The customer without autopay was extended by the 16th's run; no reminder of the 14th or 15th came late.
    const [extended] = await h.database.db.select().from(statements).where(eq(statements.customerId, manual));
    expect(extended?.extension).toBe('AUTO');
    const manualNew = (await noticeKinds(h, manual)).slice(before.manual.length);
    expect(manualNew).toEqual(['extension_applied']);
    expect(manualNew).not.toContain('reminder_dday');
  });

  it('down from the 30th to the 2nd: the 1st’s issue and overdue, then each day’s daily work, in order', async () => {
    await customerWithBill(true, '30000000003');
    await upUntil(kstAt('2026-11-29', 23, 0));
    h.clock.set(kstAt('2026-12-02', 9, 0));
    const outcomes = await catchUp(h.database.db, h.clock, debits);
    expect(order(outcomes)).toEqual([
      'reconciliation@2026-11-30',
      'reminders@2026-11-30',
      'autopay@2026-11-30',
      'overdue@2026-12',
      'statement-issue@2026-12',
      'reconciliation@2026-12-01',
      'reminders@2026-12-01',
      'autopay@2026-12-01',
      'settlement@2026-12-02',
      'reconciliation@2026-12-02',
      'prune@2026-12-02',
      'reminders@2026-12-02',
    ]);
    expect(outcomes.every((o) => o.ran)).toBe(true);
    expect(await catchUp(h.database.db, h.clock, debits)).toEqual([]);
  });

  it('two instances starting together after the gap: each run once, one debit, one notice', async () => {
    const autopaid = await customerWithBill(true, '30000000004');
    await upUntil(kstAt('2026-12-13', 23, 0));
    const before = (await noticeKinds(h, autopaid)).length;
    h.clock.set(kstAt('2026-12-16', 9, 0));
    const [a, b] = await Promise.all([
      catchUp(h.database.db, h.clock, debits),
      catchUp(h.database.db, h.clock, debits),
    ]);
    const ran = [...a, ...b].filter((o) => o.ran).map((o) => `${o.job} ${o.period}`);
    expect(new Set(ran).size).toBe(ran.length);
    const runs = await h.database.db.select().from(jobRuns);
    expect(new Set(runs.map((r) => `${r.job} ${r.period}`)).size).toBe(runs.length);
    expect((await sandboxAccount(h.database.db, '국민', '30000000004')).balance).toBe(20_000);
    expect((await noticeKinds(h, autopaid)).slice(before)).toEqual(['autopay_succeeded']);
  });

  it('a missed day’s failed debit is not tried and told again by that day’s own run hours later', async () => {
    const short = await customerWithBill(true, '30000000005', 1_000);
    await upUntil(kstAt('2026-12-13', 23, 0));
    const before = (await noticeKinds(h, short)).length;
    h.clock.set(kstAt('2026-12-16', 7, 59));
    await catchUp(h.database.db, h.clock, debits);
    h.clock.set(kstAt('2026-12-16', 10, 0));
    expect((await runJob(h.database.db, h.clock, 'autopay')).result).toEqual({ planned: 0 });
    await debits({ job: 'autopay', period: '2026-12-16', ran: true, result: null });
    expect((await noticeKinds(h, short)).slice(before).filter((k) => k === 'autopay_failed')).toHaveLength(1);
    // The next day it is tried again, as every day until the bill is overdue.
    h.clock.set(kstAt('2026-12-17', 10, 0));
    expect((await runJob(h.database.db, h.clock, 'autopay')).result).toEqual({ planned: 1 });
  });
});
