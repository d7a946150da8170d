import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainEvents, paymentRequests, purchases } from '../../db/schema';
import { countingDb } from '../../test/counting-db';
import { createHarness, type Harness } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { pay } from '../../test/payment-helpers';
import { createBillActions } from '../bills/bills-actions';
import { createMerchantService } from '../merchants/service';

/*
 * How many round trips each money write spends, pinned: every statement and each transaction's begin and
 * commit wait for a turn of the server's event loop while the customer's lock is held, so a statement added to
 * one of these paths must be a decision, not a drift. The rules themselves are tested beside each path.
 */

let h: Harness;
let merchant: Awaited<ReturnType<typeof createMerchant>>;
beforeAll(async () => {
  h = await createHarness();
  merchant = await createMerchant(h.database.db, '왕복상점');
});
afterAll(() => h.close());

const ORIGIN = 'https://ohgood.test';

const eventsOf = async (type: string, customerId: number) =>
  h.database.db
    .select({ payload: domainEvents.payload })
    .from(domainEvents)
    .where(and(eq(domainEvents.type, type), eq(domainEvents.customerId, customerId)));

describe('a merchant’s refund', () => {
  it('refunds an unpaid line in one transaction of six statements, and answers a retry with two reads', async () => {
    const { token, customerId } = await h.signUp();
    const { request, res } = await pay(h, merchant.headers, token, 12_000);
    const paymentId = res.json().result.paymentId as number;
    const { db, counter } = countingDb(h.database.db);
    const merchants = createMerchantService(db, h.clock, 120);

    const refunded = await merchants.refund(merchant.merchantId, request.requestId, ORIGIN);
    expect(refunded.status).toBe('REFUNDED');
    // Six round trips: the payer locked with its lookup, the request marked, the purchase marked, the suspension,
    // the points earned taken back, and the events in one insert. The counter sees seven: the point posting
    // builds its ledger insert as a part of its own statement. (It was 16 round trips plus begin and commit.)
    expect(counter).toMatchObject({ transactions: 1, statements: 7 });
    const [line] = await h.database.db.select().from(purchases).where(eq(purchases.id, paymentId));
    expect(line?.status).toBe('REFUNDED');
    const posted = await eventsOf('payment.refunded', customerId);
    expect(posted).toHaveLength(1);
    expect(posted[0]?.payload).toMatchObject({ paymentId, payout: 0, pointsTakenBack: line?.pointEarned });

    counter.statements = 0;
    counter.transactions = 0;
    const again = await merchants.refund(merchant.merchantId, request.requestId, ORIGIN);
    expect(again).toEqual(refunded);
    // The payer's lookup finds no PAID request, so nothing is updated, and one read finds it REFUNDED.
    expect(counter).toMatchObject({ transactions: 1, statements: 2 });
    expect(await eventsOf('payment.refunded', customerId)).toHaveLength(1);
    const [row] = await h.database.db
      .select({ status: paymentRequests.status })
      .from(paymentRequests)
      .where(eq(paymentRequests.id, request.requestId));
    expect(row?.status).toBe('REFUNDED');
  });
});

describe('an early payment', () => {
  it('repays a line in one transaction of five statements, then refuses it again after two', async () => {
    const { token, customerId } = await h.signUp();
    const { res } = await pay(h, merchant.headers, token, 25_000);
    const paymentId = res.json().result.paymentId as number;
    const { db, counter } = countingDb(h.database.db);
    const bills = createBillActions(db, h.clock);

    const repaid = await bills.repay(customerId, [paymentId]);
    expect(repaid).toMatchObject({ amount: 25_000, paymentIds: [paymentId], gradePoint: 2, suspended: false });
    // The customer locked; the line locked with its statement and the oldest-first check; the repayment, the
    // line, its statement and the grade written in one statement; both events in one insert; the suspension.
    // The counter sees six: the repayment's insert is built as a part of that one write. (It was 12 statements
    // plus begin and commit.)
    expect(counter).toMatchObject({ transactions: 1, statements: 6 });
    const [line] = await h.database.db.select().from(purchases).where(eq(purchases.id, paymentId));
    expect(line).toMatchObject({ status: 'PAID', repaymentId: repaid.repaymentId });
    expect((await eventsOf('repayment.made', customerId)).map((row) => row.payload)).toEqual([
      expect.objectContaining({ repaymentId: repaid.repaymentId, amount: 25_000, how: 'EARLY' }),
    ]);
    expect(await eventsOf('grade.changed', customerId)).toHaveLength(1);

    counter.statements = 0;
    counter.transactions = 0;
    await expect(bills.repay(customerId, [paymentId])).rejects.toMatchObject({ code: 'ALREADY_PAID' });
    expect(counter).toMatchObject({ transactions: 1, statements: 2 });
  });
});
