import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditLog, merchants, settlements } from '../db/schema';
import { runJob } from '../jobs/runner';
import { createSandboxBank } from '../modules/bank/sandbox-bank';
import { trialBalance } from '../modules/ledger/trial-balance';
import { payDueSettlements } from '../modules/settlements/payouts';
import { createHarness, type Harness } from '../test/harness';
import { ledgerMismatches, unbalancedEntries } from '../test/ledger-invariants';
import { kstAt } from '../test/notice-helpers';
import { insertPurchase } from '../test/purchase-fixture';
import { seedDemoBills } from './demo-bills';
import { ensureDemoCustomer } from './demo-customer';
import { DEMO_MERCHANTS } from './demo-merchants';
import { ensureDemoOperators } from './demo-operators';
import { ensureDemoSettlementAccounts } from './demo-settlement-accounts';

/*
 * The demo's settlement side (docs/rules/demo-data.md#E8): the seed gives every demo merchant a fee and a
 * verified settlement account through the console's actions, the books stay balanced, and a demo merchant's
 * day is paid out on the next business day.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ now: kstAt('2026-11-26', 9).toISOString() });
  const db = h.database.db;
  // The seed's steps up to the settlement accounts, in seedDemo's order (media steps left out).
  await ensureDemoCustomer(db, h.clock.now());
  await ensureDemoOperators(db, h.clock.now());
  await seedDemoBills(db, h.clock);
  await ensureDemoSettlementAccounts(db, h.clock);
}, 120_000);
afterAll(() => h.close());

const demoMerchants = () =>
  h.database.db
    .select()
    .from(merchants)
    .where(
      inArray(
        merchants.name,
        DEMO_MERCHANTS.map((m) => m.name),
      ),
    );

it('gives every demo merchant a fee and a verified account, set and verified by two operators, audited', async () => {
  const rows = await demoMerchants();
  expect(rows).toHaveLength(DEMO_MERCHANTS.length);
  for (const row of rows) {
    expect(row.settlementAccount).toMatch(/^\d{13}$/);
    expect(row.settlementAccountVerifiedAt).not.toBeNull();
    expect(row.settlementAccountVerifiedBy).not.toBe(row.settlementAccountSetBy);
    expect(row.feeBps).toBeGreaterThan(0);
  }
  expect(new Set(rows.map((row) => row.feeBps)).size).toBeGreaterThan(1);
  const trail = await h.database.db
    .select({ action: auditLog.action })
    .from(auditLog)
    .where(eq(auditLog.targetType, 'merchant'));
  const count = (action: string) => trail.filter((row) => row.action === action).length;
  expect([count('merchant.settlement-terms'), count('merchant.settlement-account')]).toEqual([8, 8]);
  expect(count('merchant.settlement-account-verify')).toBe(8);

  // Seeding again (every restart) changes nothing and audits nothing more.
  await ensureDemoSettlementAccounts(h.database.db, h.clock);
  expect(await h.database.db.select().from(auditLog).where(eq(auditLog.targetType, 'merchant'))).toHaveLength(
    trail.length,
  );
});

it('leaves the books balanced and agreeing with the demo history', async () => {
  expect(await unbalancedEntries(h.database.db)).toEqual([]);
  expect(await ledgerMismatches(h.database.db)).toEqual([]);
  expect((await trialBalance(h.database.db)).balanced).toBe(true);
});

it("pays a demo merchant's Friday sales on Monday, the next business day, to its verified account", async () => {
  const db = h.database.db;
  const [shop] = (await demoMerchants()).filter((row) => row.name === '스타벅스 강남점');
  if (!shop) throw new Error('no demo merchant');
  const { customerId } = await h.signUp();
  await insertPurchase(db, { customerId, merchantId: shop.id, totalPrice: 10_000, at: kstAt('2026-11-27', 14) });
  const bank = createSandboxBank(db, h.clock);
  const friday = () =>
    db
      .select()
      .from(settlements)
      .where(and(eq(settlements.merchantId, shop.id), eq(settlements.businessDate, '2026-11-27')));

  h.clock.set(kstAt('2026-11-28', 0, 30));
  await runJob(db, h.clock, 'settlement');
  h.clock.set(kstAt('2026-11-28', 9));
  await payDueSettlements(db, bank, h.clock);
  const [closed] = await friday();
  expect(closed).toMatchObject({ status: 'PENDING', dueDate: '2026-11-30', fees: 250, payout: 9_750 });

  h.clock.set(kstAt('2026-11-30', 9));
  await payDueSettlements(db, bank, h.clock);
  expect((await friday())[0]).toMatchObject({ status: 'PAID', payoutAccount: shop.settlementAccount });
  expect(await ledgerMismatches(db)).toEqual([]);
  expect((await trialBalance(db)).balanced).toBe(true);
});
