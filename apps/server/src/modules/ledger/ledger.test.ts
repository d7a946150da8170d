import type { DomainEvent } from '@ohgood/contract/domain-events';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, purchases } from '../../db/schema';
import { rowsOf, withTx } from '../../db/tx';
import { recordEvent } from '../../events/record-event';
import { seedDemoBills } from '../../seed/demo-bills';
import { ensureDemoCustomer } from '../../seed/demo-customer';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { entriesOf, ledgerMismatches, unbalancedEntries } from '../../test/ledger-invariants';
import { createMerchant } from '../../test/merchant-fixture';
import { insertPurchase } from '../../test/purchase-fixture';
import { refundPurchaseOfRequest } from '../payments/refund';
import { POINT_REASONS, postPoints } from '../points/ledger';

/*
 * The entries each money fact posts (docs/rules/ledger.md#L2) and what the database itself guarantees about
 * them (#L1, #L3): a zero sum per entry at commit, an append-only journal, one entry per source fact.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

/** The SQLSTATE under drizzle's wrapper. */
function codeOf(error: unknown): string | undefined {
  let current = error as { code?: unknown; cause?: unknown } | undefined;
  while (current) {
    if (typeof current.code === 'string') return current.code;
    current = current.cause as typeof current;
  }
  return undefined;
}

async function failure(work: Promise<unknown>): Promise<string | undefined> {
  try {
    await work;
  } catch (error) {
    return codeOf(error);
  }
  return 'no error';
}

const lines = async (kind: string, id: number | string) =>
  (await entriesOf(h.database.db, kind, id)).map((e) => e.lines);

describe('postings per fact', () => {
  it('a purchase, its repayment and a refund of the repaid line each post one balanced entry', async () => {
    const { customerId, token } = await h.signUp();
    const { merchantId } = await createMerchant(h.database.db);
    const at = h.clock.now();
    const paymentId = await insertPurchase(h.database.db, {
      customerId,
      merchantId,
      totalPrice: 10_000,
      pointUsed: 1_000,
      pointEarned: 20,
      at,
    });
    // The 1,000 points came from a check-in grant: the product's marketing expense, its own entry.
    expect(await lines('payment', paymentId)).toEqual([
      [
        { kind: 'CUSTOMER_RECEIVABLE', owner: customerId, amount: 9_000 },
        { kind: 'MERCHANT_PAYABLE', owner: merchantId, amount: -10_000 },
        { kind: 'POINTS_EXPENSE', owner: 0, amount: 20 },
        { kind: 'POINTS_LIABILITY', owner: 0, amount: 980 },
      ],
    ]);

    const repaid = await h.app.inject({
      method: 'POST',
      url: '/api/payment/immediately',
      headers: bearer(token),
      payload: [paymentId],
    });
    expect(repaid.statusCode, repaid.body).toBe(200);
    const [purchase] = await h.database.db.select().from(purchases).where(eq(purchases.id, paymentId));
    expect(await lines('repayment', purchase?.repaymentId ?? 0)).toEqual([
      [
        { kind: 'BANK_CLEARING', owner: 0, amount: 9_000 },
        { kind: 'CUSTOMER_RECEIVABLE', owner: customerId, amount: -9_000 },
      ],
    ]);

    await withTx(h.database.db, (tx) => refundPurchaseOfRequest(tx, purchase?.requestId ?? '', h.clock.now()));
    // Repaid: the 9,000 is owed back to the customer; the points used come back, those earned are taken back.
    expect(await lines('refund', paymentId)).toEqual([
      [
        { kind: 'CUSTOMER_PAYABLE', owner: customerId, amount: -9_000 },
        { kind: 'MERCHANT_PAYABLE', owner: merchantId, amount: 10_000 },
        { kind: 'POINTS_EXPENSE', owner: 0, amount: -20 },
        { kind: 'POINTS_LIABILITY', owner: 0, amount: -980 },
      ],
    ]);
    expect(await ledgerMismatches(h.database.db)).toEqual([]);
  });

  it('a refund of an unpaid line takes it off the receivable; a check-in is points expense', async () => {
    const { customerId } = await h.signUp();
    const { merchantId } = await createMerchant(h.database.db);
    const key = `checkin:${customerId}:2026-11-22`;
    await withTx(h.database.db, (tx) =>
      postPoints(tx, {
        customerId,
        amount: 300,
        reason: POINT_REASONS.checkin,
        refType: 'checkin',
        refId: '2026-11-22',
        idempotencyKey: key,
        at: h.clock.now(),
      }),
    );
    expect(await lines('points', key)).toEqual([
      [
        { kind: 'POINTS_EXPENSE', owner: 0, amount: 300 },
        { kind: 'POINTS_LIABILITY', owner: 0, amount: -300 },
      ],
    ]);
    const paymentId = await insertPurchase(h.database.db, {
      customerId,
      merchantId,
      totalPrice: 4_000,
      at: h.clock.now(),
    });
    const [purchase] = await h.database.db.select().from(purchases).where(eq(purchases.id, paymentId));
    await withTx(h.database.db, (tx) => refundPurchaseOfRequest(tx, purchase?.requestId ?? '', h.clock.now()));
    expect(await lines('refund', paymentId)).toEqual([
      [
        { kind: 'CUSTOMER_RECEIVABLE', owner: customerId, amount: -4_000 },
        { kind: 'MERCHANT_PAYABLE', owner: merchantId, amount: 4_000 },
      ],
    ]);
    expect(await ledgerMismatches(h.database.db)).toEqual([]);
  });
});

describe('the demo seed', () => {
  it("posts the demo customer's history like real facts: its books agree", async () => {
    await ensureDemoCustomer(h.database.db, h.clock.now());
    await seedDemoBills(h.database.db, h.clock);
    const [demo] = await rowsOf<{ n: number }>(
      h.database.db,
      sql`select count(*)::int as n from ledger_entries where source_kind = 'repayment'`,
    );
    expect(demo?.n).toBeGreaterThanOrEqual(4);
    expect(await ledgerMismatches(h.database.db)).toEqual([]);
  });
});

describe('what the database guarantees', () => {
  it('refuses, at commit, an entry whose lines do not sum to zero, whoever writes it', async () => {
    const code = await failure(
      withTx(h.database.db, async (tx) => {
        const [entry] = await tx
          .insert(ledgerEntries)
          .values({ sourceKind: 'test', sourceId: 'lopsided', postedAt: h.clock.now() })
          .returning({ id: ledgerEntries.id });
        await tx.execute(sql`insert into ledger_lines (entry_id, account_kind, owner_id, amount)
          values (${entry?.id}, 'BANK_CLEARING', 0, 100), (${entry?.id}, 'FEE_REVENUE', 0, -99)`);
      }),
    );
    expect(code).toBe('23514');
    expect(await entriesOf(h.database.db, 'test', 'lopsided')).toEqual([]);
    expect(await unbalancedEntries(h.database.db)).toEqual([]);
  });

  it('keeps the journal append-only: a line or an entry is never changed or removed', async () => {
    const { customerId } = await h.signUp();
    await insertPurchase(h.database.db, { customerId, totalPrice: 1_000, at: h.clock.now() });
    expect(await failure(h.database.db.execute(sql`update ledger_lines set amount = amount * 2`))).toBe('42501');
    expect(await failure(h.database.db.execute(sql`delete from ledger_lines`))).toBe('42501');
    expect(await failure(h.database.db.execute(sql`delete from ledger_entries`))).toBe('42501');
    expect(await ledgerMismatches(h.database.db)).toEqual([]);
  });

  it('posts a fact once even when its event is recorded again', async () => {
    const { customerId } = await h.signUp();
    const { merchantId } = await createMerchant(h.database.db);
    const paymentId = await insertPurchase(h.database.db, {
      customerId,
      merchantId,
      totalPrice: 2_500,
      at: h.clock.now(),
    });
    const [event] = await rowsOf<{ payload: DomainEvent }>(
      h.database.db,
      sql`select payload from domain_events
        where type = 'payment.completed' and (payload ->> 'paymentId')::int = ${paymentId}`,
    );
    if (!event) throw new Error('no payment event');
    await withTx(h.database.db, (tx) => recordEvent(tx, event.payload, h.clock.now()));
    expect(await entriesOf(h.database.db, 'payment', paymentId)).toHaveLength(1);
    expect(await ledgerMismatches(h.database.db)).toEqual([]);
  });
});
