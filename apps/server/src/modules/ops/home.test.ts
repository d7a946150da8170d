import { kstDate } from '@ohgood/contract/kst';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { autopayAttempts, statements } from '../../db/schema';
import { createHarness, type Harness } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { pay } from '../../test/payment-helpers';
import { signedInOperator } from '../../test/staff-fixture';

/** The console's home: today's figures (KST day), from a database of this file's own. */

let h: Harness;
let support: Record<string, string>;

beforeAll(async () => {
  h = await createHarness();
  support = (await signedInOperator(h, 'SUPPORT')).auth;
});
afterAll(() => h.close());

it("counts today's payments and amount, and today's failed autopay debits only", async () => {
  const merchant = await createMerchant(h.database.db);
  const customer = await h.signUp();
  expect((await pay(h, merchant.headers, customer.token, 12_000)).res.statusCode).toBe(200);
  expect((await pay(h, merchant.headers, customer.token, 3_000)).res.statusCode).toBe(200);
  const [statement] = await h.database.db
    .select({ id: statements.id })
    .from(statements)
    .where(eq(statements.customerId, customer.customerId));
  const today = kstDate(h.clock.now());
  const daysAgo = (n: number) => kstDate(new Date(h.clock.now().getTime() - n * 86_400_000));
  const attempt = (kstDay: string, status: string) => ({
    statementId: statement?.id as number,
    customerId: customer.customerId,
    kstDate: kstDay,
    status,
    nextTryAt: h.clock.now(),
  });
  await h.database.db
    .insert(autopayAttempts)
    .values([attempt(today, 'FAILED'), attempt(daysAgo(1), 'FAILED'), attempt(daysAgo(2), 'PAID')]);

  const home = await h.app.inject({ method: 'GET', url: '/api/ops/home', headers: support });
  expect(home.statusCode).toBe(200);
  expect(home.json()).toMatchObject({
    date: today,
    payments: { count: 2, amount: 15_000 },
    refunds: { count: 0, amount: 0 },
    overdueCustomers: 0,
    autopayFailures: 1,
    openReports: 0,
  });
});
