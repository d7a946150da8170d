import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, purchases } from '../../db/schema';
import { rowsOf } from '../../db/tx';
import { catchUp } from '../../jobs/runner';
import { consentToAutopay, sendCode, verifyAutopay } from '../../test/autopay-fixture';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { ledgerMismatches, unbalancedEntries } from '../../test/ledger-invariants';
import { createMerchant, grantPoints } from '../../test/merchant-fixture';
import { pay } from '../../test/payment-helpers';
import { insertPurchase } from '../../test/purchase-fixture';
import { runAutopay } from '../autopay/autopay-job';
import { createSandboxBank, setSandboxAccount } from '../bank/sandbox-bank';
import { trialBalance } from './trial-balance';

/*
 * The ledger's invariants (docs/rules/ledger.md#L4) after randomized sequences of real money facts on the real
 * database: finals through the API, purchases with points through the payments' writer, check-in points,
 * early repayments, merchant refunds of unpaid and repaid lines, and days passing with the bill jobs and
 * autopay's debits (a customer whose account runs dry fails and is tried again), and 1원 인증 codes (each
 * customer's, and newcomers' whose bank may refuse the deposit). After every step the books
 * balance and every account agrees with the facts' own tables.
 */
let h: Harness;
let shops: Array<{ merchantId: number; headers: Record<string, string> }>;
beforeAll(async () => {
  h = await createHarness({ now: '2026-09-01T03:00:00Z' });
  shops = [await createMerchant(h.database.db, '원장상점A'), await createMerchant(h.database.db, '원장상점B')];
});
afterAll(() => h.close());

type Step =
  | { kind: 'final'; who: number; shop: number; amount: number }
  | { kind: 'buy'; who: number; shop: number; amount: number; pointUsed: number; pointEarned: number }
  | { kind: 'points'; who: number; amount: number }
  | { kind: 'repay'; who: number; take: number }
  | { kind: 'refund'; pick: number }
  | { kind: 'code'; closed: boolean }
  | { kind: 'days'; days: number };

const who = fc.integer({ min: 0, max: 1 });
const shop = fc.integer({ min: 0, max: 1 });
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('final' as const),
      who,
      shop,
      amount: fc.integer({ min: 100, max: 30_000 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('buy' as const),
      who,
      shop,
      amount: fc.integer({ min: 1_000, max: 40_000 }),
      pointUsed: fc.integer({ min: 0, max: 900 }),
      pointEarned: fc.integer({ min: 0, max: 80 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('points' as const), who, amount: fc.integer({ min: 1, max: 500 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('repay' as const), who, take: fc.integer({ min: 1, max: 4 }) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('refund' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('code' as const), closed: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('days' as const), days: fc.integer({ min: 1, max: 40 }) }) },
);

/** Each run starts after the previous one ended, so its month ends find the scheduled jobs not yet run. */
let nextStart = Date.UTC(2026, 8, 1, 3);
let accounts = 0;

interface Customer {
  customerId: number;
  token: string;
}

async function login(customerId: number): Promise<string> {
  const [row] = await h.database.db.select().from(customers).where(eq(customers.id, customerId));
  const res = await h.app.inject({ method: 'POST', url: '/auth', payload: { emailId: row?.email, pwd: 'password1!' } });
  return res.json().accessToken;
}

/** A customer with their own sandbox account: one with plenty, one that runs dry after a debit or two. */
async function newCustomer(index: number): Promise<Customer> {
  accounts += 1;
  const account = String(70_000_000_000 + accounts);
  const { customerId, token } = await h.signUp({ account, accountName: '신한' });
  await verifyAutopay(h, { token, customerId });
  await setSandboxAccount(
    h.database.db,
    '신한',
    account,
    { balance: index === 0 ? 10_000_000 : 30_000 },
    h.clock.now(),
  );
  return { customerId, token };
}

async function apply(s: Step, people: Customer[]): Promise<void> {
  const db = h.database.db;
  if (s.kind === 'final') {
    const person = people[s.who] as Customer;
    const shopOf = shops[s.shop] as (typeof shops)[number];
    // A final beyond the available limit is refused (and posts nothing); the invariants hold either way.
    await pay(h, shopOf.headers, person.token, s.amount).catch(() => undefined);
  } else if (s.kind === 'buy') {
    const person = people[s.who] as Customer;
    await insertPurchase(db, {
      customerId: person.customerId,
      merchantId: shops[s.shop]?.merchantId,
      totalPrice: s.amount,
      pointUsed: s.pointUsed,
      pointEarned: s.pointEarned,
      at: h.clock.now(),
    });
  } else if (s.kind === 'points') {
    await grantPoints(db, (people[s.who] as Customer).customerId, s.amount, h.clock.now());
  } else if (s.kind === 'repay') {
    const person = people[s.who] as Customer;
    const info = await h.app.inject({ method: 'GET', url: '/api/payment/info', headers: bearer(person.token) });
    const lines = (info.json().unpaidBills as Array<Array<{ paymentId: number }>>).flat().map((l) => l.paymentId);
    if (lines.length === 0) return;
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/payment/immediately',
      headers: bearer(person.token),
      payload: lines.slice(0, s.take),
    });
    expect([200, 409, 422]).toContain(res.statusCode);
  } else if (s.kind === 'refund') {
    const mine = await db
      .select()
      .from(purchases)
      .where(eq(purchases.customerId, (people[s.pick % people.length] as Customer).customerId));
    const target = mine[s.pick % Math.max(1, mine.length)];
    if (!target) return;
    const shopOf = shops.find((x) => x.merchantId === target.merchantId);
    if (!shopOf) return;
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/merchant/payment-requests/${target.requestId}/refund`,
      headers: shopOf.headers,
    });
    // Refunded already, or past the refund window: refused, nothing posted.
    expect([200, 409, 422]).toContain(res.statusCode);
  } else if (s.kind === 'code') {
    // A newcomer asks for a 1원 인증 code: its won leaves the bank, or the bank refuses a closed account.
    accounts += 1;
    const account = String(70_000_000_000 + accounts);
    const { token } = await h.signUp({ account, accountName: '신한' });
    expect((await consentToAutopay(h, token)).statusCode).toBe(200);
    if (s.closed) await setSandboxAccount(db, '신한', account, { state: 'closed' }, h.clock.now());
    expect((await sendCode(h, token)).statusCode).toBe(s.closed ? 422 : 200);
  } else {
    h.clock.advance(s.days * 86_400_000);
    const bank = createSandboxBank(db, h.clock);
    const debit = async (outcome: { job: string }) => {
      if (outcome.job === 'autopay') await runAutopay(db, bank, h.clock);
    };
    await catchUp(db, h.clock, debit);
    await runAutopay(db, bank, h.clock);
    for (const person of people) person.token = await login(person.customerId);
  }
}

async function expectBooksAgree(): Promise<void> {
  expect(await unbalancedEntries(h.database.db)).toEqual([]);
  expect(await ledgerMismatches(h.database.db)).toEqual([]);
  const books = await trialBalance(h.database.db);
  expect(books.balanced).toBe(true);
  expect(books.totalDebit).toBe(books.totalCredit);
}

describe('ledger invariants (property)', () => {
  it('after any sequence of money facts the books balance and agree with bills, points and refunds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 12 }), async (steps) => {
        h.clock.set(new Date(nextStart));
        const people = [await newCustomer(0), await newCustomer(1)];
        for (const s of steps) {
          await apply(s, people);
          await expectBooksAgree();
        }
        nextStart = h.clock.now().getTime() + 86_400_000;
      }),
      // Bounded for a busy 2-core machine: each run is two customers' histories on the real database; the
      // seed is printed on failure to replay it.
      { numRuns: 20 },
    );
    // The runs reached every kind of fact, autopay's debits among them.
    const sources = await rowsOf<{ source_kind: string }>(
      h.database.db,
      sql`select distinct source_kind from ledger_entries`,
    );
    expect(sources.map((row) => row.source_kind).sort()).toEqual(
      expect.arrayContaining(['payment', 'points', 'refund', 'repayment', 'verification-deposit']),
    );
    const [automatic] = await rowsOf<{ n: number }>(
      h.database.db,
      sql`select count(*)::int as n from autopay_attempts where status = 'PAID'`,
    );
    expect(automatic?.n).toBeGreaterThan(0);
  }, 240_000);
});
