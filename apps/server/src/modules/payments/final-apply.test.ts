import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness';
import { createMerchant, grantPoints } from '../../test/merchant-fixture';
import { createRequest, finalPay, validatePin } from '../../test/payment-helpers';
import { createPaymentService } from './service';

// The finals' write step, `payment_final_apply_batch` (migration 0012, ADR 0108/0109): it writes each payment
// only when what the app read for it still holds (else the app reads and decides again), item by item.

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

interface Apply {
  customerId: number;
  requestId: string;
  totalPrice: number;
  seen: { balance: number; gradePoint: number; owed: number };
  pointUsed?: number;
  key?: string;
}

/** One call of the write step for `items`: each item's outcome, in item order. */
async function applyAll(items: Apply[]) {
  const now = h.clock.now();
  const column = <T>(pick: (item: Apply) => T) => items.map(pick);
  return query<{ item: number; outcome: string; payment_id: number | null }>(
    `select item, outcome, payment_id from payment_final_apply_batch($1::int[], $2::uuid[], $3::int[],
      $4::timestamptz[], $5::date[], $6::text[], $7::int[], $8::int[], $9::bigint[], $10::int[], $11::int[],
      $12::jsonb[], $13::text[], $14::text[], 'PURCHASE_USE', 'PURCHASE_EARN', 'payment-final') order by item`,
    [
      column((i) => i.customerId),
      column((i) => i.requestId),
      column((i) => i.totalPrice),
      column(() => now),
      column(() => '2026-11-22'),
      column(() => '2026-11'),
      column((i) => i.seen.balance),
      column((i) => i.seen.gradePoint),
      column((i) => i.seen.owed),
      column((i) => i.pointUsed ?? 0),
      column(() => 0),
      column((i) => JSON.stringify({ price: i.totalPrice })),
      column((i) => i.key ?? null),
      column((i) => (i.key ? 'hash' : null)),
    ],
  );
}

async function apply(item: Apply) {
  const [row] = await applyAll([item]);
  return row && { outcome: row.outcome, payment_id: row.payment_id };
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

describe('payment_final_apply_batch', () => {
  it('writes nothing and answers stale when the points, grade, owed amount or request changed', async () => {
    const r = await reserved(5_000, 1_000);
    const base = { customerId: r.customerId, requestId: r.requestId, totalPrice: 5_000, seen: r.seen };
    const untouched = await written(r.customerId, r.requestId);
    expect(untouched).toMatchObject({ status: 'ACTIVE', purchases: 0, answers: 0, ledger: 0, balance: 1_000 });

    for (const changed of [
      { ...base, seen: { ...r.seen, balance: 900 } },
      { ...base, seen: { ...r.seen, gradePoint: 10 } },
      { ...base, seen: { ...r.seen, owed: 1 } },
      { ...base, totalPrice: 4_000 },
    ]) {
      expect(await apply({ ...changed, pointUsed: 300 })).toEqual({ outcome: 'stale', payment_id: null });
      expect(await written(r.customerId, r.requestId)).toEqual(untouched);
    }

    const paid = await apply({ ...base, pointUsed: 300 });
    expect(paid?.outcome).toBe('applied');
    expect(await written(r.customerId, r.requestId)).toEqual({
      status: 'PAID',
      purchases: 1,
      answers: 1,
      ledger: 1,
      balance: 700,
    });
    // Paid once: the same apply again finds the request no longer ACTIVE.
    expect(await apply({ ...base, seen: { ...r.seen, balance: 700 } })).toMatchObject({ outcome: 'stale' });
    expect((await written(r.customerId, r.requestId)).purchases).toBe(1);
  });

  it('answers key_taken and writes nothing when the Idempotency-Key was stored meanwhile', async () => {
    const r = await reserved(3_000);
    await query(
      `insert into idempotency_keys (customer_id, scope, key, response, request_hash) values ($1, 'payment-final', 'key:k1', '{}', 'other')`,
      [r.customerId],
    );
    const outcome = await apply({
      customerId: r.customerId,
      requestId: r.requestId,
      totalPrice: 3_000,
      seen: r.seen,
      key: 'key:k1',
    });
    expect(outcome).toEqual({ outcome: 'key_taken', payment_id: null });
    expect(await written(r.customerId, r.requestId)).toMatchObject({ status: 'ACTIVE', purchases: 0, answers: 1 });
  });

  it('answers each item of one call for itself: an applied, a stale and a key_taken item side by side', async () => {
    const [fresh, changed, keyed] = [await reserved(2_000, 500), await reserved(3_000), await reserved(4_000)];
    await query(
      `insert into idempotency_keys (customer_id, scope, key, response, request_hash) values ($1, 'payment-final', 'key:k2', '{}', 'other')`,
      [keyed.customerId],
    );
    const outcomes = await applyAll([
      { customerId: fresh.customerId, requestId: fresh.requestId, totalPrice: 2_000, seen: fresh.seen, pointUsed: 200 },
      {
        customerId: changed.customerId,
        requestId: changed.requestId,
        totalPrice: 3_000,
        seen: { ...changed.seen, owed: 5 },
      },
      { customerId: keyed.customerId, requestId: keyed.requestId, totalPrice: 4_000, seen: keyed.seen, key: 'key:k2' },
    ]);
    expect(outcomes.map((o) => [o.item, o.outcome])).toEqual([
      [1, 'applied'],
      [2, 'stale'],
      [3, 'key_taken'],
    ]);
    const [purchase] = await query<{ id: number; price: number }>(
      'select id, price from purchases where request_id = $1',
      [fresh.requestId],
    );
    expect(purchase).toEqual({ id: outcomes[0]?.payment_id, price: 1_800 });
    expect(await written(fresh.customerId, fresh.requestId)).toEqual({
      status: 'PAID',
      purchases: 1,
      answers: 1,
      ledger: 1,
      balance: 300,
    });
    expect(await written(changed.customerId, changed.requestId)).toMatchObject({
      status: 'ACTIVE',
      purchases: 0,
      answers: 0,
    });
    expect(await written(keyed.customerId, keyed.requestId)).toMatchObject({
      status: 'ACTIVE',
      purchases: 0,
      answers: 1,
    });
  });

  it("writes only the first of one customer's items in one call: the later one read a state the first changes", async () => {
    const { customerId, requests } = await holdingTwo(1_000);
    const seen = { balance: 0, gradePoint: 0, owed: 0 };
    const outcomes = await applyAll(
      requests.map((request) => ({ customerId, requestId: request.requestId, totalPrice: 1_000, seen })),
    );
    expect(outcomes.map((o) => o.outcome)).toEqual(['applied', 'stale']);
    const [counted] = await query<{ n: number }>('select count(*)::int as n from purchases where customer_id = $1', [
      customerId,
    ]);
    expect(counted?.n).toBe(1);
  });
});

/**
 * Holds the customer's row lock in a transaction of its own until `release`, so finals started meanwhile read
 * (no lock) and then wait inside their apply step; resolves once `waiters` of them are waiting there.
 */
async function holdCustomer(customerId: number) {
  const client = await h.database.pool.connect();
  await client.query('begin');
  await client.query('select 1 from customers where id = $1 for update', [customerId]);
  let released = false;
  holders.push(() => holder.release());
  const holder = {
    client,
    async waiters(count: number) {
      for (;;) {
        const [row] = await query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
           where wait_event_type = 'Lock' and query like '%payment_final_apply_batch%'`,
        );
        if ((row?.n ?? 0) >= count) return;
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
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

describe('a final whose read went stale', () => {
  it('decides again on the new balance when points moved between its read and its write', async () => {
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

  it('gives up with 409 PAYMENT_BUSY, writing nothing, when every read went stale', async () => {
    const r = await reserved(5_000, 1_000);
    // The real service on the real database, allowed one read only.
    const payments = createPaymentService(h.database.db, h.clock, { finalAttempts: 1 });
    const hold = await holdCustomer(r.customerId);
    const final = payments.final(r.customerId, r.requestId, 0).catch((error: unknown) => error);
    await hold.waiters(1);
    await hold.client.query('update customers set grade_point = grade_point + 1 where id = $1', [r.customerId]);
    await hold.release();
    expect(await final).toMatchObject({ status: 409, code: 'PAYMENT_BUSY' });
    expect(await written(r.customerId, r.requestId)).toMatchObject({ status: 'ACTIVE', purchases: 0, answers: 0 });
  });

  it('refuses the second of two finals that each fit the limit alone but not together', async () => {
    const { customerId, requests } = await holdingTwo(60_000);
    const hold = await holdCustomer(customerId);
    // Two app instances (one instance runs a customer's finals one after another): both read an owed amount
    // of 0 against the 100,000 limit, then wait to write.
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

describe('a final decided on what validate saw', () => {
  it('reads again instead of refusing when points were credited after validate', async () => {
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

  it('refuses on a fresh read when the request was cancelled after validate', async () => {
    const r = await reserved(2_000);
    await query(`update payment_requests set status = 'CANCELLED', closed_at = now() where id = $1`, [r.requestId]);
    const res = await finalPay(h, r.token, r.requestId);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('REQUEST_NOT_ACTIVE');
    expect(await written(r.customerId, r.requestId)).toMatchObject({ status: 'CANCELLED', purchases: 0, answers: 0 });
  });
});
