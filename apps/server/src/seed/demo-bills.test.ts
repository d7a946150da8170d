import type { BillStatus, PaymentInfo } from '@ohgood/contract/bills';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, pointLedger, purchases, repayments, statements } from '../db/schema';
import { createHarness, type Harness } from '../test/harness';
import { seedDemoBills } from './demo-bills';
import { DEMO_CUSTOMER, ensureDemoCustomer } from './demo-customer';

let h: Harness;
beforeAll(async () => {
  // 00:30 KST on 1 December: the current month has barely begun.
  h = await createHarness({ now: '2026-11-30T15:30:00Z' });
});
afterAll(() => h.close());

async function get(url: string, token: string) {
  const res = await h.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('demo bills seed (E1)', () => {
  it('gives the demo customer repaid months, an unpaid previous month and an open current month, once', async () => {
    const customerId = await ensureDemoCustomer(h.database.db, h.clock.now());
    await seedDemoBills(h.database.db, h.clock);
    await seedDemoBills(h.database.db, h.clock);
    const login = await h.app.inject({
      method: 'POST',
      url: '/auth',
      payload: { emailId: DEMO_CUSTOMER.email, pwd: DEMO_CUSTOMER.password },
    });
    const token = login.json().accessToken as string;

    const rows = await h.database.db.select().from(purchases).where(eq(purchases.customerId, customerId));
    expect(rows).toHaveLength(6 * 4);
    expect(rows.every((row) => row.createdAt.getTime() <= h.clock.now().getTime())).toBe(true);
    expect(new Set(rows.map((row) => row.statementMonth))).toEqual(
      new Set(['2026-07', '2026-08', '2026-09', '2026-10', '2026-11', '2026-12']),
    );
    expect(await h.database.db.select().from(repayments).where(eq(repayments.customerId, customerId))).toHaveLength(4);
    const paidStatements = (await h.database.db.select().from(statements).where(eq(statements.customerId, customerId)))
      .filter((s) => s.paidAt)
      .map((s) => s.month);
    expect(paidStatements.sort()).toEqual(['2026-07', '2026-08', '2026-09', '2026-10']);

    const info: PaymentInfo = await get('/api/payment/info', token);
    expect(info.gradeName).toBe('gold');
    expect(info.unpaidBills.map((group) => group.length)).toEqual([4, 4]);
    const currentOwed = info.unpaidBills[1]?.reduce((sum, line) => sum + line.price, 0) ?? 0;
    expect(info.balance).toBe(200_000 - currentOwed);
    const status: BillStatus = (await get('/api/payment/statements', token)).data;
    expect(status.statements.map((s) => [s.month, s.status, s.dueDate])).toEqual([
      ['2026-11', 'DUE', '2026-12-15'],
      ['2026-12', 'OPEN', '2027-01-15'],
    ]);

    // Points earned by the demo purchases are real ledger entries: balance = Σ ledger.
    const [sum] = await h.database.db
      .select({ total: sql<string>`coalesce(sum(${pointLedger.amount}), 0)` })
      .from(pointLedger)
      .where(eq(pointLedger.customerId, customerId));
    const [customer] = await h.database.db.select().from(customers).where(eq(customers.id, customerId));
    expect(customer?.pointBalance).toBeGreaterThan(0);
    expect(customer?.pointBalance).toBe(Number(sum?.total));
  });
});
