import { kstStartOfDay } from '@ohgood/contract/kst';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { customers, domainEvents, pointLedger } from '../db/schema';
import { withTx } from '../db/tx';
import { runJob } from '../jobs/runner';
import { POINT_REASONS, postPoints } from '../modules/points/ledger';
import { eventsOf } from '../test/domain-event-rows';
import { bearer, createHarness, type Harness } from '../test/harness';
import { insertPurchase } from '../test/purchase-fixture';
import { recordEvent } from './record-event';

let h: Harness;
beforeEach(async () => {
  // These tests read what a fact recorded; no dispatcher runs, so none can mark an event dispatched meanwhile.
  h = await createHarness({ now: '2026-11-01T03:00:00Z', config: { DISPATCH_EVENTS: false } });
});
afterEach(() => h.close());

const kst = (date: string, hh = 12, mm = 0) => new Date(kstStartOfDay(date).getTime() + (hh * 60 + mm) * 60_000);
const types = async (customerId: number) => (await eventsOf(h.database.db, customerId)).map((e) => e.type);

async function customerAt(at: Date, gradePoint: number) {
  h.clock.set(at);
  const signed = await h.signUp();
  await h.database.db.update(customers).set({ gradePoint }).where(eq(customers.id, signed.customerId));
  return signed;
}
async function tokenAt(at: Date, emailId: string): Promise<string> {
  h.clock.set(at);
  const res = await h.app.inject({ method: 'POST', url: '/auth', payload: { emailId, pwd: 'password1!' } });
  return res.json().accessToken;
}
async function runAt(job: 'statement-issue' | 'auto-extension' | 'overdue', date: string) {
  h.clock.set(kst(date, 0, 5));
  return runJob(h.database.db, h.clock, job);
}

describe('domain events (the outbox seam)', () => {
  it('each fact of a customer’s month records its event, in order, with the fields a consumer needs', async () => {
    const { customerId, emailId } = await customerAt(kst('2026-11-05'), 30);
    const nov1 = await insertPurchase(h.database.db, { customerId, totalPrice: 40_000, at: kst('2026-11-05') });
    const nov2 = await insertPurchase(h.database.db, { customerId, totalPrice: 15_000, at: kst('2026-11-20') });

    await runAt('statement-issue', '2026-12-01');
    await runAt('auto-extension', '2026-12-16');
    await runAt('overdue', '2027-01-01');
    const t = await tokenAt(kst('2027-01-20'), emailId);
    const repaid = await h.app.inject({
      method: 'POST',
      url: '/api/payment/immediately',
      headers: bearer(t),
      payload: [nov1, nov2],
    });
    expect(repaid.statusCode).toBe(200);

    // The purchases' own events come first (final-write.test.ts checks them).
    const events = (await eventsOf(h.database.db, customerId)).filter((e) => e.type !== 'payment.completed');
    expect(events).toEqual([
      { type: 'statement.issued', customerId, month: '2026-11', amount: 55_000, lines: 2, dueDate: '2026-12-15' },
      { type: 'statement.extended', customerId, month: '2026-11', by: 'JOB', dueDate: '2026-12-31', penalty: 5 },
      {
        type: 'grade.changed',
        customerId,
        reason: 'AUTO_EXTENSION',
        from: { gradePoint: 30, grade: 'silver' },
        to: { gradePoint: 25, grade: 'silver' },
      },
      { type: 'statement.overdue', customerId, month: '2026-11', amount: 55_000, penalty: 20 },
      {
        type: 'grade.changed',
        customerId,
        reason: 'OVERDUE',
        from: { gradePoint: 25, grade: 'silver' },
        to: { gradePoint: 5, grade: 'bronze' },
      },
      { type: 'account.suspended', customerId, reason: 'OVERDUE' },
      {
        type: 'repayment.made',
        customerId,
        repaymentId: repaid.json().data.repaymentId,
        how: 'EARLY',
        amount: 55_000,
        paymentIds: [nov1, nov2].sort((a, b) => a - b),
        months: ['2026-11'],
      },
      // Repaid after it went overdue: no grade points, so no grade event; the suspension lifts.
      { type: 'account.suspension_lifted', customerId, reason: 'REPAID' },
    ]);
    // A job run again records nothing again.
    await runAt('statement-issue', '2026-12-01');
    expect(await types(customerId)).toHaveLength(events.length + 2);
  });

  it('a customer’s own extension and an on-time repayment record theirs', async () => {
    const { customerId, emailId } = await customerAt(kst('2026-11-05'), 0);
    const line = await insertPurchase(h.database.db, { customerId, totalPrice: 20_000, at: kst('2026-11-05') });
    const t = await tokenAt(kst('2026-12-03'), emailId);
    expect((await h.app.inject({ method: 'POST', url: '/api/payment/extension', headers: bearer(t) })).statusCode).toBe(
      200,
    );
    const repaid = await h.app.inject({
      method: 'POST',
      url: '/api/payment/immediately',
      headers: bearer(t),
      payload: [line],
    });
    expect(repaid.statusCode).toBe(200);
    const events = (await eventsOf(h.database.db, customerId)).filter((e) => e.type !== 'payment.completed');
    expect(events[0]).toEqual({
      type: 'statement.extended',
      customerId,
      month: '2026-11',
      by: 'CUSTOMER',
      dueDate: '2026-12-31',
      penalty: 0,
    });
    expect(events.slice(1).map((e) => e.type)).toEqual(['grade.changed', 'repayment.made']);
    expect(events[1]).toMatchObject({ reason: 'REPAYMENT', from: { gradePoint: 0 }, to: { gradePoint: 2 } });
  });

  it('a point posting records points.posted with the balance after it', async () => {
    const { customerId } = await customerAt(kst('2026-11-05'), 0);
    await withTx(h.database.db, (tx) =>
      postPoints(tx, {
        customerId,
        amount: 70,
        reason: POINT_REASONS.checkin,
        refType: 'checkin',
        refId: '2026-11-05',
        idempotencyKey: 'events-test:1',
        at: h.clock.now(),
      }),
    );
    // The same key again writes nothing: no second row, no second event.
    await withTx(h.database.db, (tx) =>
      postPoints(tx, {
        customerId,
        amount: 70,
        reason: POINT_REASONS.checkin,
        refType: 'checkin',
        refId: '2026-11-05',
        idempotencyKey: 'events-test:1',
        at: h.clock.now(),
      }),
    );
    expect(await eventsOf(h.database.db, customerId)).toEqual([
      {
        type: 'points.posted',
        customerId,
        amount: 70,
        reason: 'CHECKIN_ROULETTE',
        refType: 'checkin',
        refId: '2026-11-05',
        balance: 70,
        key: 'events-test:1',
      },
    ]);
    const [row] = await h.database.db.select().from(domainEvents).where(eq(domainEvents.customerId, customerId));
    expect(row).toMatchObject({ occurredAt: h.clock.now(), dispatchedAt: null, attempts: 0 });
  });

  it('an event disappears with its fact when the fact’s transaction rolls back', async () => {
    const { customerId } = await customerAt(kst('2026-11-05'), 0);
    const failed = withTx(h.database.db, async (tx) => {
      await postPoints(tx, {
        customerId,
        amount: 50,
        reason: POINT_REASONS.checkin,
        refType: 'checkin',
        refId: 'rolled-back',
        idempotencyKey: 'events-test:rollback',
        at: h.clock.now(),
      });
      throw new Error('the fact fails after its event was written');
    });
    await expect(failed).rejects.toThrow(/fact fails/);
    expect(await eventsOf(h.database.db, customerId)).toEqual([]);
    expect(await h.database.db.select().from(pointLedger).where(eq(pointLedger.customerId, customerId))).toEqual([]);
  });

  it('an event the contract refuses fails its fact’s transaction instead of reaching a consumer', async () => {
    const { customerId } = await customerAt(kst('2026-11-05'), 0);
    const bad = withTx(h.database.db, async (tx) => {
      await tx.update(customers).set({ pointBalance: 10 }).where(eq(customers.id, customerId));
      await recordEvent(
        tx,
        // A negative balance is not a points.posted the contract allows.
        {
          type: 'points.posted',
          customerId,
          amount: -5,
          reason: 'PURCHASE_USE',
          refType: 'x',
          refId: '1',
          balance: -1,
        },
        h.clock.now(),
      );
    });
    await expect(bad).rejects.toThrow();
    const [row] = await h.database.db.select().from(customers).where(eq(customers.id, customerId));
    expect(row?.pointBalance).toBe(0);
    expect(await eventsOf(h.database.db, customerId)).toEqual([]);
  });
});
