import { kstMonth } from '@ohgood/contract/kst';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withParts } from '../../db/cte';
import { anyOverSql, hit, isOver } from '../../db/rate-limit-counters';
import { customers, paymentRequests, pointLedger, purchases, rateLimitCounters, statements } from '../../db/schema';
import { rowsOf, withTx } from '../../db/tx';
import type { Window } from '../../lib/rate-limit';
import { createHarness, type Harness } from '../../test/harness';
import { createMerchant, grantPoints } from '../../test/merchant-fixture';
import { createRequest, pay } from '../../test/payment-helpers';
import { insertPurchase } from '../../test/purchase-fixture';
import { ensureStatement, openStatementsQuery, owedSql } from '../bills/statements';
import { POINT_REASONS, type PointEntry, pointPostingParts, postPoints } from '../points/ledger';
import { writeDirectPurchases } from './direct-purchases';
import { isUsableRequest, usableRequestSql } from './usable-request';

// Each money mechanic has one home and two uses: alone, for one row, and folded into a statement over a set of
// rows (the payment's write, a job). These tests hold the two uses to the same answer.

let h: Harness;
let merchant: Awaited<ReturnType<typeof createMerchant>>;
beforeAll(async () => {
  h = await createHarness();
  merchant = await createMerchant(h.database.db, '규칙상점');
});
afterAll(() => h.close());

const db = () => h.database.db;
const at = (iso: string) => new Date(iso);

describe('owed sum (owedSql)', () => {
  it('counts the same per (customer, month) given values or given each row’s columns', async () => {
    const a = (await h.signUp()).customerId;
    const b = (await h.signUp()).customerId;
    const ids = [
      await insertPurchase(db(), { customerId: a, totalPrice: 7_000, at: at('2026-11-02T03:00:00Z') }),
      await insertPurchase(db(), { customerId: a, totalPrice: 3_000, pointUsed: 500, at: at('2026-11-03T03:00:00Z') }),
      await insertPurchase(db(), { customerId: a, totalPrice: 9_000, at: at('2026-11-04T03:00:00Z') }),
      await insertPurchase(db(), { customerId: a, totalPrice: 4_000, at: at('2026-10-04T03:00:00Z') }),
      await insertPurchase(db(), { customerId: b, totalPrice: 1_000, at: at('2026-11-05T03:00:00Z') }),
    ];
    // One repaid and one refunded line count for nothing.
    await db()
      .update(purchases)
      .set({ status: 'PAID' })
      .where(eq(purchases.id, ids[2] ?? 0));
    await db()
      .update(purchases)
      .set({ status: 'REFUNDED' })
      .where(eq(purchases.id, ids[4] ?? 0));

    const pairs = await db()
      .select({ customerId: statements.customerId, month: statements.month })
      .from(statements)
      .where(inArray(statements.customerId, [a, b]))
      .orderBy(asc(statements.customerId), asc(statements.month));
    const single = [];
    for (const { customerId, month } of pairs) {
      const [row] = await db()
        .select({ owed: owedSql(customerId, month) })
        .from(sql`(values (1)) as one (x)`);
      single.push({ customerId, month, owed: Number(row?.owed) });
    }
    const setBased = (
      await db()
        .select({
          customerId: statements.customerId,
          month: statements.month,
          owed: owedSql(statements.customerId, statements.month),
        })
        .from(statements)
        .where(inArray(statements.customerId, [a, b]))
        .orderBy(asc(statements.customerId), asc(statements.month))
    ).map((row) => ({ ...row, owed: Number(row.owed) }));
    expect(setBased).toEqual(single);
    expect(single).toEqual([
      { customerId: a, month: '2026-10', owed: 4_000 },
      { customerId: a, month: '2026-11', owed: 7_000 + 2_500 },
      { customerId: b, month: '2026-11', owed: 0 },
    ]);
  });
});

describe('open or reopen a statement (openStatementsQuery)', () => {
  /** Two customers in the same state: a repaid November, an open October, no December. */
  async function twins() {
    const made = [];
    for (let i = 0; i < 2; i++) {
      const { customerId } = await h.signUp();
      await db()
        .insert(statements)
        .values([
          { customerId, month: '2026-11', paidAt: at('2026-11-20T03:00:00Z') },
          { customerId, month: '2026-10' },
        ]);
      made.push(customerId);
    }
    return made as [number, number];
  }
  const state = async (customerId: number) =>
    (
      await db()
        .select({ month: statements.month, paidAt: statements.paidAt })
        .from(statements)
        .where(eq(statements.customerId, customerId))
        .orderBy(asc(statements.month))
    ).map((row) => ({ month: row.month, paid: row.paidAt !== null }));

  it('one pair at a time and all pairs in one statement leave the same rows: a repaid one reopened', async () => {
    const [alone, together] = await twins();
    const months = ['2026-11', '2026-10', '2026-12', '2026-11'];
    await withTx(db(), async (tx) => {
      for (const month of months) await ensureStatement(tx, alone, month);
      await openStatementsQuery(
        tx,
        months.map((month) => ({ customerId: together, month })),
      );
    });
    const expected = [
      { month: '2026-10', paid: false },
      { month: '2026-11', paid: false },
      { month: '2026-12', paid: false },
    ];
    expect(await state(alone)).toEqual(expected);
    expect(await state(together)).toEqual(expected);
  });
});

describe('post points (pointPostingParts)', () => {
  it('entries posted one by one and in one statement leave the same ledger and balance; a key is written once', async () => {
    const alone = (await h.signUp()).customerId;
    const together = (await h.signUp()).customerId;
    const entries = (customerId: number): PointEntry[] =>
      [
        [100, POINT_REASONS.checkin, 'a'],
        [-30, POINT_REASONS.paymentUse, 'b'],
        [7, POINT_REASONS.paymentEarn, 'c'],
        [100, POINT_REASONS.checkin, 'a'], // the same key again: skipped
      ].map(([amount, reason, key]) => ({
        customerId,
        amount: amount as number,
        reason: reason as PointEntry['reason'],
        refType: 'checkin' as const,
        refId: String(key),
        idempotencyKey: `mechanics:${customerId}:${key}`,
        at: h.clock.now(),
      }));
    const posted = await withTx(db(), async (tx) => {
      const balances = [];
      for (const entry of entries(alone)) balances.push(await postPoints(tx, entry));
      return balances;
    });
    expect(posted).toEqual([100, 70, 77, null]);
    await withTx(db(), (tx) =>
      rowsOf(tx, withParts(pointPostingParts(tx, entries(together)), sql`select count(*) from points_moved`)),
    );
    const books = async (customerId: number) => ({
      ledger: (
        await db()
          .select({ amount: pointLedger.amount, reason: pointLedger.reason })
          .from(pointLedger)
          .where(eq(pointLedger.customerId, customerId))
          .orderBy(asc(pointLedger.id))
      ).map((row) => [row.amount, row.reason]),
      balance: (await db().select().from(customers).where(eq(customers.id, customerId)))[0]?.pointBalance,
    });
    expect(await books(together)).toEqual(await books(alone));
    expect((await books(alone)).balance).toBe(77);
  });
});

describe('failed-code window (anyOverSql)', () => {
  it('several windows in one condition answer what each window checked alone answers, combined', async () => {
    const now = h.clock.now();
    const windows: Window[] = [
      { key: 'mechanics-over', limit: 2, windowMs: 600_000 },
      { key: 'mechanics-under', limit: 5, windowMs: 600_000 },
      { key: 'mechanics-none', limit: 1, windowMs: 600_000 },
    ];
    for (let i = 0; i < 2; i++) await hit(db(), windows[0] as Window, now);
    await hit(db(), windows[1] as Window, now);
    const together = async (ws: Window[]) =>
      (
        await db()
          .select({ over: anyOverSql(ws, now) })
          .from(sql`(values (1)) as one (x)`)
      )[0]?.over;
    for (const subset of [[0], [1], [2], [0, 1], [1, 2], [0, 1, 2]]) {
      const ws = subset.map((i) => windows[i] as Window);
      const alone = (await Promise.all(ws.map((w) => isOver(db(), w, now)))).some(Boolean);
      expect(await together(ws)).toBe(alone);
    }
    expect(await isOver(db(), windows[0] as Window, now)).toBe(true);
    expect(await db().select().from(rateLimitCounters).where(eq(rateLimitCounters.key, 'mechanics-none'))).toEqual([]);
  });
});

describe('usable request (usableRequestSql / isUsableRequest)', () => {
  it('the query’s filter and the decision’s predicate pick the same requests', async () => {
    const made = [];
    for (let i = 0; i < 4; i++) made.push((await createRequest(h, merchant.headers, 1_000 + i)).requestId);
    const now = h.clock.now();
    await db()
      .update(paymentRequests)
      .set({ expiresAt: new Date(now.getTime() - 1) })
      .where(eq(paymentRequests.id, made[1] ?? ''));
    await db()
      .update(paymentRequests)
      .set({ expiresAt: now })
      .where(eq(paymentRequests.id, made[2] ?? ''));
    await db()
      .update(paymentRequests)
      .set({ status: 'CANCELLED', closedAt: now })
      .where(eq(paymentRequests.id, made[3] ?? ''));
    const rows = await db().select().from(paymentRequests).where(inArray(paymentRequests.id, made));
    const byPredicate = rows.filter((row) => isUsableRequest(row, now)).map((row) => row.id);
    const byQuery = (
      await db()
        .select({ id: paymentRequests.id })
        .from(paymentRequests)
        .where(and(inArray(paymentRequests.id, made), usableRequestSql(now)))
    ).map((row) => row.id);
    expect(byQuery.sort()).toEqual(byPredicate.sort());
    expect(byQuery).toEqual([made[0]]);
  });
});

describe('earn formula and the one writer of purchases', () => {
  it('a purchase written by the seed’s path earns exactly what a real final earns at the same grade', async () => {
    const real = await h.signUp();
    const direct = (await h.signUp()).customerId;
    for (const id of [real.customerId, direct]) {
      await db().update(customers).set({ gradePoint: 70 }).where(eq(customers.id, id)); // platinum, 1.5 %
    }
    await grantPoints(db(), real.customerId, 1, h.clock.now());
    await grantPoints(db(), direct, 1, h.clock.now());
    const paid = await pay(h, merchant.headers, real.token, 12_345, 1);
    expect(paid.res.statusCode).toBe(200);
    const [id] = await withTx(db(), (tx) =>
      writeDirectPurchases(tx, direct, [
        {
          merchantId: merchant.merchantId,
          requestName: '같은 상품',
          totalPrice: 12_345,
          pointUsed: 1,
          at: h.clock.now(),
        },
      ]),
    );
    const earned = async (where: ReturnType<typeof eq>) =>
      (
        await db()
          .select({ pointEarned: purchases.pointEarned, month: purchases.statementMonth })
          .from(purchases)
          .where(where)
      )[0];
    expect(await earned(eq(purchases.id, id ?? 0))).toEqual(await earned(eq(purchases.customerId, real.customerId)));
    expect((await earned(eq(purchases.id, id ?? 0)))?.pointEarned).toBe(Math.floor(12_344 * 0.015));
    expect(paid.res.json().result.pointEarned).toBe(Math.floor(12_344 * 0.015));
    expect((await earned(eq(purchases.id, id ?? 0)))?.month).toBe(kstMonth(h.clock.now()));
  });
});
