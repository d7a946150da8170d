import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf } from '../../test/domain-event-rows';
import { createHarness, type Harness } from '../../test/harness';
import { lockWaiters } from '../../test/lock-waits';
import { createMerchant, grantPoints } from '../../test/merchant-fixture';
import { createRequest, finalPay, validatePin } from '../../test/payment-helpers';
import { asOwner } from '../../test/test-database';
import { createPaymentService } from './service';

// The final's transaction (ADR 0112): it locks the customer, then the request, reads, decides and writes; a
// final that waited for the customer's lock decides on what the lock holder committed.
let h: Harness;
let merchant: Awaited<ReturnType<typeof createMerchant>>;

beforeAll(async () => {
  h = await createHarness();
  merchant = await createMerchant(h.database.db, '적용상점');
});
afterAll(() => h.close());

const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
  (await h.database.pool.query<R>(text, values)).rows;

/** A customer holding a validated request of `price`, and what a final's read would have seen. */
async function reserved(price: number, points = 0) {
  const { token, customerId } = await h.signUp();
  if (points > 0) await grantPoints(h.database.db, customerId, points, h.clock.now());
  const request = await createRequest(h, merchant.headers, price);
  expect((await validatePin(h, token, request.pinCode)).statusCode).toBe(200);
  return { token, customerId, requestId: request.requestId, seen: { balance: points, gradePoint: 0, owed: 0 } };
}

/** A customer holding two validated requests of `price` each. */
async function holdingTwo(price: number) {
  const { token, customerId } = await h.signUp();
  const requests = [];
  for (let i = 0; i < 2; i++) {
    const request = await createRequest(h, merchant.headers, price);
    expect((await validatePin(h, token, request.pinCode)).statusCode).toBe(200);
    requests.push(request);
  }
  return { customerId, requests };
}

/** Everything a payment writes, for one customer and request. */
async function written(customerId: number, requestId: string) {
  const [request] = await query<{ status: string }>('select status from payment_requests where id = $1', [requestId]);
  const [counts] = await query<{ purchases: number; answers: number; ledger: number; balance: number }>(
    `select (select count(*)::int from purchases where customer_id = $1) as purchases,
       (select count(*)::int from idempotency_keys where customer_id = $1) as answers,
       (select count(*)::int from point_ledger where customer_id = $1 and reason like 'PURCHASE%') as ledger,
       (select point_balance from customers where id = $1) as balance`,
    [customerId],
  );
  return { status: request?.status, ...counts };
}

describe('the final’s write', () => {
  it('writes the purchase, the answer, the PAID request, the points and the events in one go', async () => {
    const r = await reserved(5_000, 1_000);
    const res = await finalPay(h, r.token, r.requestId, 300);
    expect(res.statusCode).toBe(200);
    const { paymentId, pointEarned, pointBalance } = res.json().result;
    expect(pointEarned).toBe(9); // bronze: 0.2 % of the 4,700 owed
    expect(await written(r.customerId, r.requestId)).toEqual({
      status: 'PAID',
      purchases: 1,
      answers: 1,
      ledger: 2,
      balance: 1_000 - 300 + 9,
    });
    const events = (await eventsOf(h.database.db, r.customerId)).filter(
      (e) => e.type !== 'points.posted' || e.refType === 'purchase',
    );
    expect(events).toEqual([
      {
        type: 'payment.completed',
        customerId: r.customerId,
        paymentId,
        requestId: r.requestId,
        merchantId: merchant.merchantId,
        requestName: '아메리카노',
        totalPrice: 5_000,
        pointUsed: 300,
        price: 4_700,
        pointEarned: 9,
        month: '2026-11',
      },
      expect.objectContaining({ type: 'points.posted', amount: -300, reason: 'PURCHASE_USE', balance: 700 }),
      expect.objectContaining({ type: 'points.posted', amount: 9, reason: 'PURCHASE_EARN', balance: pointBalance }),
    ]);
  });
});

/**
 * Holds the customer's row lock in a transaction of its own until `release`, so finals started meanwhile wait
 * for it in their first statement; `waiters` resolves once `count` of them are waiting there.
 */
async function holdCustomer(customerId: number) {
  const client = await h.database.pool.connect();
  await client.query('begin');
  await client.query('select 1 from customers where id = $1 for update', [customerId]);
  let released = false;
  holders.push(() => holder.release());
  const holder = {
    client,
    waiters: (count: number) => lockWaiters(h.database.db, '%from "customers"%for no key update%', count),
    /** Commits the holder's transaction (once; a failed test releases it too, so the pool can close). */
    async release() {
      if (released) return;
      released = true;
      await client.query('commit');
      client.release();
    },
  };
  return holder;
}

const holders: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(holders.splice(0).map((release) => release()));
});

describe('a final waiting for the customer’s lock', () => {
  it('decides on the new balance when points moved while it waited', async () => {
    const r = await reserved(5_000, 1_000);
    const hold = await holdCustomer(r.customerId);
    const final = finalPay(h, r.token, r.requestId, 600);
    await hold.waiters(1);
    // Points credited while the final waits (as a check-in reward would, in the lock holder's transaction).
    await hold.client.query(
      `insert into point_ledger (customer_id, amount, reason, ref_type, ref_id, kst_date, idempotency_key)
       values ($1::int, 500, 'CHECKIN_ROULETTE', 'checkin', 'stale-test', '2026-11-22', 'stale-test-' || $1::text)`,
      [r.customerId],
    );
    await hold.client.query('update customers set point_balance = point_balance + 500 where id = $1', [r.customerId]);
    await hold.release();
    const res = await final;
    expect(res.statusCode).toBe(200);
    const earned = res.json().result.pointEarned;
    expect(res.json().result.pointBalance).toBe(1_500 - 600 + earned);
    expect((await written(r.customerId, r.requestId)).balance).toBe(1_500 - 600 + earned);
  });

  it('refuses the second of two finals that each fit the limit alone but not together', async () => {
    const { customerId, requests } = await holdingTwo(60_000);
    const hold = await holdCustomer(customerId);
    // Two app instances: both wait for the customer's lock; the second reads the first's purchase.
    const instances = requests.map(() => createPaymentService(h.database.db, h.clock));
    const finals = requests.map((request, i) =>
      instances[i]?.final(customerId, request.requestId, 0).then(
        () => 200,
        (error: { status?: number }) => error.status,
      ),
    );
    await hold.waiters(2);
    await hold.release();
    const statuses = (await Promise.all(finals)).sort();
    expect(statuses).toEqual([200, 422]);
    const [owed] = await query<{ sum: number }>(
      'select coalesce(sum(price), 0)::int as sum from purchases where customer_id = $1',
      [customerId],
    );
    expect(owed?.sum).toBe(60_000);
  });
});

describe('a final decides on what holds at its write, not on what validate saw', () => {
  it('pays with points credited after validate', async () => {
    const r = await reserved(5_000);
    // Validate saw 0 points; the points arrive before the final, from another path.
    await grantPoints(h.database.db, r.customerId, 1_000, h.clock.now());
    const res = await finalPay(h, r.token, r.requestId, 800);
    expect(res.statusCode).toBe(200);
    const { pointUsed, pointEarned, pointBalance } = res.json().result;
    expect(pointUsed).toBe(800);
    expect(pointBalance).toBe(1_000 - 800 + pointEarned);
    expect((await written(r.customerId, r.requestId)).balance).toBe(pointBalance);
  });

  it('refuses when the request was cancelled after validate', async () => {
    const r = await reserved(2_000);
    await query(`update payment_requests set status = 'CANCELLED', closed_at = now() where id = $1`, [r.requestId]);
    const res = await finalPay(h, r.token, r.requestId);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('REQUEST_NOT_ACTIVE');
    expect(await written(r.customerId, r.requestId)).toMatchObject({ status: 'CANCELLED', purchases: 0, answers: 0 });
  });
});

describe('a final that stays deadlocked through every retry', () => {
  it('answers PAYMENT_BUSY with nothing written, and the same final pays once when tried again', async () => {
    const r = await reserved(3_000, 500);
    // Every insert of this customer's purchase fails as a real deadlock (SQLSTATE 40P01) would; the sequence
    // counts the attempts, as it is not rolled back with them.
    // Schema changes are the owner's: the app's own role may not make them.
    await asOwner(h.database, [
      'create sequence busy_attempts',
      `create function busy_purchase() returns trigger language plpgsql as $$
      begin
        perform nextval('busy_attempts');
        raise exception 'deadlock detected (test)' using errcode = '40P01';
      end $$`,
      `create trigger busy_purchase before insert on purchases for each row
       when (new.customer_id = ${r.customerId}) execute function busy_purchase()`,
    ]);
    try {
      const busy = await finalPay(h, r.token, r.requestId, 200);
      expect(busy.statusCode).toBe(409);
      expect(busy.json().code).toBe('PAYMENT_BUSY');
      const [attempts] = await query<{ n: string }>('select last_value as n from busy_attempts');
      expect(Number(attempts?.n)).toBeGreaterThan(1); // withTx ran it again before giving up
      expect(await written(r.customerId, r.requestId)).toEqual({
        status: 'ACTIVE',
        purchases: 0,
        answers: 0,
        ledger: 0,
        balance: 500,
      });
    } finally {
      await asOwner(h.database, [
        'drop trigger busy_purchase on purchases',
        'drop function busy_purchase()',
        'drop sequence busy_attempts',
      ]);
    }
    const paid = await finalPay(h, r.token, r.requestId, 200);
    expect(paid.statusCode).toBe(200);
    expect(await written(r.customerId, r.requestId)).toMatchObject({ status: 'PAID', purchases: 1, answers: 1 });
  });
});
