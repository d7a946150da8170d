import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { autopayAttempts, purchases } from '../../db/schema';
import { rowsOf } from '../../db/tx';
import { runJob } from '../../jobs/runner';
import { verifyAutopay } from '../../test/autopay-fixture';
import { deferred } from '../../test/deferred';
import { createHarness, type Harness } from '../../test/harness';
import { entriesOf, ledgerMismatches, unbalancedEntries } from '../../test/ledger-invariants';
import { createMerchant } from '../../test/merchant-fixture';
import { kstAt } from '../../test/notice-helpers';
import { createRequest, finalPay, validatePin } from '../../test/payment-helpers';
import { insertPurchase } from '../../test/purchase-fixture';
import { refundFromConsole } from '../../test/staff-fixture';
import { runAutopay } from '../autopay/autopay-job';
import type { BankGateway } from '../bank/gateway';
import { createSandboxBank, setSandboxAccount } from '../bank/sandbox-bank';
import { trialBalance } from './trial-balance';

/*
 * Facts racing each other post exactly once each (docs/rules/ledger.md#L2, #L4): a final tapped twice, two
 * customers' first payments at a new shop, a refund sent twice, two refunds at once, and a refund while
 * autopay's debit of the same line is being asked (the surplus held, then given back).
 */
let h: Harness;
beforeEach(async () => {
  h = await createHarness({ now: kstAt('2026-11-05').toISOString() });
});
afterEach(() => h.close());

async function expectBooksAgree(): Promise<void> {
  expect(await unbalancedEntries(h.database.db)).toEqual([]);
  expect(await ledgerMismatches(h.database.db)).toEqual([]);
  expect((await trialBalance(h.database.db)).balanced).toBe(true);
}

async function entryCount(sourceKind: string): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    h.database.db,
    sql`select count(*)::int as n from ledger_entries where source_kind = ${sourceKind}`,
  );
  return row?.n ?? 0;
}

const refund = (requestId: string, headers: Record<string, string>) =>
  h.app.inject({ method: 'POST', url: `/api/merchant/payment-requests/${requestId}/refund`, headers });

describe('payments and refunds at once', () => {
  it('a final tapped twice at once posts one entry; two first payments at a new shop post one each', async () => {
    const shop = await createMerchant(h.database.db, '새가게');
    const [a, b] = [await h.signUp(), await h.signUp()];
    const requests = [await createRequest(h, shop.headers, 12_000), await createRequest(h, shop.headers, 8_000)];
    expect((await validatePin(h, a.token, requests[0]?.pinCode ?? '')).statusCode).toBe(200);
    expect((await validatePin(h, b.token, requests[1]?.pinCode ?? '')).statusCode).toBe(200);
    // Customer a taps twice while b pays: three finals at once, the shop's payable opened by the first.
    const answers = await Promise.all([
      finalPay(h, a.token, requests[0]?.requestId ?? ''),
      finalPay(h, a.token, requests[0]?.requestId ?? ''),
      finalPay(h, b.token, requests[1]?.requestId ?? ''),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const bought = await h.database.db.select().from(purchases).where(eq(purchases.merchantId, shop.merchantId));
    expect(bought).toHaveLength(2);
    for (const line of bought) expect(await entriesOf(h.database.db, 'payment', line.id)).toHaveLength(1);
    expect(await entryCount('payment')).toBe(2);
    await expectBooksAgree();
  });

  it('a refund sent twice at once posts once; two refunds of one customer at once post one each', async () => {
    const shop = await createMerchant(h.database.db);
    const { customerId } = await h.signUp();
    const ids = [
      await insertPurchase(h.database.db, {
        customerId,
        merchantId: shop.merchantId,
        totalPrice: 5_000,
        at: h.clock.now(),
      }),
      await insertPurchase(h.database.db, {
        customerId,
        merchantId: shop.merchantId,
        totalPrice: 7_000,
        at: h.clock.now(),
      }),
    ];
    const lines = await h.database.db.select().from(purchases).where(eq(purchases.customerId, customerId));
    const requestOf = (id: number) => lines.find((l) => l.id === id)?.requestId ?? '';
    const answers = await Promise.all([
      refund(requestOf(ids[0] ?? 0), shop.headers),
      refund(requestOf(ids[0] ?? 0), shop.headers),
      refund(requestOf(ids[1] ?? 0), shop.headers),
    ]);
    expect(answers.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(2);
    for (const id of ids) expect(await entriesOf(h.database.db, 'refund', id)).toHaveLength(1);
    expect(await entryCount('refund')).toBe(2);
    await expectBooksAgree();
  });
});

describe('a refund while autopay debits the same line', () => {
  /** A customer owing 33,000 on the 15th, their debit held at the bank until the test lets it go. */
  async function debitHeld(credit?: BankGateway['credit']) {
    const { customerId, token } = await h.signUp({ accountName: '신한', account: '11122233344' });
    await verifyAutopay(h, { token, customerId });
    const purchaseId = await insertPurchase(h.database.db, { customerId, totalPrice: 33_000, at: kstAt('2026-11-06') });
    await setSandboxAccount(h.database.db, '신한', '11122233344', { balance: 50_000 }, h.clock.now());
    h.clock.set(kstAt('2026-12-15', 10, 0));
    const sandbox = createSandboxBank(h.database.db, h.clock);
    const started = deferred<void>();
    const release = deferred<void>();
    const bank: BankGateway = {
      async debit(request) {
        started.resolve();
        await release.promise;
        return sandbox.debit(request);
      },
      credit: credit ?? ((request) => sandbox.credit(request)),
      depositVerification: (request) => sandbox.depositVerification(request),
    };
    await runJob(h.database.db, h.clock, 'autopay');
    const run = runAutopay(h.database.db, bank, h.clock);
    await started.promise;
    await refundFromConsole(h, purchaseId);
    release.resolve();
    await run;
    return customerId;
  }

  const payableOf = async (customerId: number) => {
    const [row] = await rowsOf<{ balance: string | null }>(
      h.database.db,
      sql`select sum(amount)::text as balance from ledger_lines
        where account_kind = 'CUSTOMER_PAYABLE' and owner_id = ${customerId}`,
    );
    return Number(row?.balance ?? 0);
  };

  it('holds what the bank took as owed back, and clears it when the bank gives it back', async () => {
    const customerId = await debitHeld();
    const [attempt] = await h.database.db.select().from(autopayAttempts);
    expect(attempt).toMatchObject({ surplus: 33_000 });
    expect(attempt?.surplusRefundedAt).not.toBeNull();
    // Held (−33,000) and given back (+33,000): the customer is owed nothing; the bank moved in and out.
    expect(await payableOf(customerId)).toBe(0);
    expect(await entryCount('autopay-surplus-held')).toBe(1);
    expect(await entryCount('autopay-surplus-refunded')).toBe(1);
    await expectBooksAgree();
  });

  it('keeps the surplus owed while the credit fails, and clears it once when a later run gives it back', async () => {
    const customerId = await debitHeld(async () => 'unavailable');
    expect(await payableOf(customerId)).toBe(-33_000);
    await expectBooksAgree();

    const bank = createSandboxBank(h.database.db, h.clock);
    await Promise.all([runAutopay(h.database.db, bank, h.clock), runAutopay(h.database.db, bank, h.clock)]);
    expect(await payableOf(customerId)).toBe(0);
    expect(await entryCount('autopay-surplus-refunded')).toBe(1);
    await expectBooksAgree();
  });
});
