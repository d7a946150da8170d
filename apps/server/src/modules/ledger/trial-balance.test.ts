import { STAFF_ROLES } from '@ohgood/contract/endpoint';
import { LEDGER_ACCOUNT_KINDS, type TrialBalance } from '@ohgood/contract/ledger';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purchases } from '../../db/schema';
import { withTx } from '../../db/tx';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { ledgerMismatches } from '../../test/ledger-invariants';
import { createMerchant } from '../../test/merchant-fixture';
import { insertPurchase } from '../../test/purchase-fixture';
import { signedInOperator } from '../../test/staff-fixture';
import { refundPurchaseOfRequest } from '../payments/refund';

/* The trial balance of the console (docs/rules/ledger.md#L5): ADMIN only; each kind's sides and `balanced`. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const URL = '/api/ops/ledger/trial-balance';
const get = (headers: Record<string, string> = {}) => h.app.inject({ method: 'GET', url: URL, headers });

describe('GET /api/ops/ledger/trial-balance', () => {
  it('is refused to every role but ADMIN, to customers and without a token', async () => {
    for (const role of STAFF_ROLES.filter((r) => r !== 'ADMIN')) {
      expect((await get((await signedInOperator(h, role)).auth)).statusCode, role).toBe(403);
    }
    expect((await get(bearer((await h.signUp()).token))).statusCode).toBe(401);
    expect((await get()).statusCode).toBe(401);
  });

  it("answers each kind's debit and credit balances after real facts, and that the books balance", async () => {
    const admin = await signedInOperator(h, 'ADMIN');
    const empty = (await get(admin.auth)).json() as TrialBalance;
    expect(empty).toMatchObject({ totalDebit: 0, totalCredit: 0, entries: 0, balanced: true });

    const { customerId, token } = await h.signUp();
    const { merchantId } = await createMerchant(h.database.db);
    const at = h.clock.now();
    const kept = await insertPurchase(h.database.db, {
      customerId,
      merchantId,
      totalPrice: 20_000,
      pointUsed: 500,
      at,
    });
    const refunded = await insertPurchase(h.database.db, { customerId, merchantId, totalPrice: 6_000, at });
    const repaid = await h.app.inject({
      method: 'POST',
      url: '/api/payment/immediately',
      headers: bearer(token),
      payload: [kept, refunded],
    });
    expect(repaid.statusCode, repaid.body).toBe(200);
    const [line] = await h.database.db.select().from(purchases).where(eq(purchases.id, refunded));
    await withTx(h.database.db, (tx) => refundPurchaseOfRequest(tx, line?.requestId ?? '', h.clock.now()));

    const res = await get(admin.auth);
    expect(res.statusCode).toBe(200);
    const books = res.json() as TrialBalance;
    const kind = (k: string) => books.kinds.find((row) => row.kind === k);
    // Repaid 19,500 + 6,000 through the bank; the refunded 6,000 is owed back; the shop is owed 20,000.
    expect(kind('BANK_CLEARING')).toEqual({ kind: 'BANK_CLEARING', accounts: 1, debit: 25_500, credit: 0 });
    expect(kind('CUSTOMER_RECEIVABLE')).toMatchObject({ accounts: 1, debit: 0, credit: 0 });
    expect(kind('CUSTOMER_PAYABLE')).toMatchObject({ accounts: 1, debit: 0, credit: 6_000 });
    expect(kind('MERCHANT_PAYABLE')).toMatchObject({ accounts: 1, debit: 0, credit: 20_000 });
    expect(kind('POINTS_EXPENSE')).toMatchObject({ debit: 500, credit: 0 });
    expect(kind('POINTS_LIABILITY')).toMatchObject({ debit: 0, credit: 0 });
    expect(books.kinds.map((row) => row.kind)).toEqual([...LEDGER_ACCOUNT_KINDS]);
    // The fixture's grant of the 500 points used, two purchases, one repayment, one refund.
    expect(books).toMatchObject({ totalDebit: 26_000, totalCredit: 26_000, entries: 5, balanced: true });
    expect(await ledgerMismatches(h.database.db)).toEqual([]);
  });
});
