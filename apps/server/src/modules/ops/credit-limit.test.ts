import { LIMIT_CHANGE_SHOWN_DAYS } from '@ohgood/contract/bills';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, customers, domainEvents } from '../../db/schema';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { noticesAfterDispatch } from '../../test/notice-helpers';
import { createRequest, finalPay, pay, validatePin } from '../../test/payment-helpers';
import { signedInOperator } from '../../test/staff-fixture';

/** docs/rules/operations.md#O8: risk sets a customer's limit within the grade's bounds, and payments follow it. */

let h: Harness;
let risk: Record<string, string>;
let merchant: { headers: Record<string, string> };

beforeAll(async () => {
  h = await createHarness();
  risk = (await signedInOperator(h, 'RISK')).auth;
  merchant = await createMerchant(h.database.db);
});
afterAll(() => h.close());

const setLimit = (customerId: number, payload: object) =>
  h.app.inject({ method: 'POST', url: `/api/ops/customers/${customerId}/limit`, headers: risk, payload });

const limitAudit = (customerId: number) =>
  h.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetId, String(customerId)), eq(auditLog.action, 'customer.limit')))
    .orderBy(auditLog.id);

describe('changing a credit limit (O8)', () => {
  it('lowers the limit with an audit row and an event; a final over the new limit is refused', async () => {
    const customer = await h.signUp(); // bronze: 100,000 KRW a month
    const request = await createRequest(h, merchant.headers, 60_000);
    // Validated while the limit was 100,000; the final decides on the limit in force when it runs.
    expect((await validatePin(h, customer.token, request.pinCode)).statusCode).toBe(200);

    const changed = await setLimit(customer.customerId, { limit: 50_000, reason: '소득 확인 전 한도 하향' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ customerId: customer.customerId, limit: 50_000, creditLimit: 50_000 });

    const refused = await finalPay(h, customer.token, request.requestId);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('LIMIT_EXCEEDED');
    const paid = await pay(h, merchant.headers, customer.token, 40_000);
    expect(paid.res.statusCode).toBe(200);
    expect(paid.res.json().result.balance).toBe(10_000);

    const [row] = await limitAudit(customer.customerId);
    expect(row).toMatchObject({ role: 'RISK', reason: '소득 확인 전 한도 하향' });
    expect(row?.before).toEqual({ limit: 100_000, creditLimit: null });
    expect(row?.after).toEqual({ limit: 50_000, creditLimit: 50_000 });
    const events = await h.database.db
      .select()
      .from(domainEvents)
      .where(and(eq(domainEvents.customerId, customer.customerId), eq(domainEvents.type, 'credit_limit.changed')));
    expect(events.map((e) => e.payload)).toEqual([
      {
        type: 'credit_limit.changed',
        customerId: customer.customerId,
        from: 100_000,
        to: 50_000,
        creditLimit: 50_000,
      },
    ]);

    // The customer's own screens and the console show the limit in force.
    const info = await h.app.inject({ method: 'GET', url: '/api/payment/info', headers: bearer(customer.token) });
    expect(info.json()).toMatchObject({ limitPrice: 50_000, balance: 10_000 });
    const page = await h.app.inject({ method: 'GET', url: `/api/ops/customers/${customer.customerId}`, headers: risk });
    expect(page.json().customer).toMatchObject({
      limit: 50_000,
      gradeLimit: 100_000,
      creditLimit: 50_000,
      limitBounds: { min: 10_000, max: 100_000, step: 10_000 },
      usedThisMonth: 40_000,
    });
  });

  it('refuses a limit outside the grade’s bounds, changing nothing', async () => {
    const customer = await h.signUp();
    for (const limit of [150_000, 5_000, 0, 55_000]) {
      const res = await setLimit(customer.customerId, { limit, reason: '한도 조정' });
      expect(res.statusCode, String(limit)).toBe(422);
      expect(res.json().code).toBe('LIMIT_OUT_OF_BOUNDS');
      expect(res.json().message).toContain('100,000원');
    }
    const noReason = await setLimit(customer.customerId, { limit: 50_000 });
    expect(noReason.statusCode).toBe(400);
    expect(await limitAudit(customer.customerId)).toEqual([]);
    const [row] = await h.database.db.select().from(customers).where(eq(customers.id, customer.customerId));
    expect(row?.creditLimit).toBeNull();
  });

  it('the grade’s own limit clears risk’s, and the customer follows the grade again', async () => {
    const customer = await h.signUp();
    expect((await setLimit(customer.customerId, { limit: 30_000, reason: '일시 하향' })).statusCode).toBe(200);
    const back = await setLimit(customer.customerId, { limit: 100_000, reason: '상환 확인, 원복' });
    expect(back.json()).toEqual({ customerId: customer.customerId, limit: 100_000, creditLimit: null });
    // A grade up now lifts the limit with it: nothing of risk's remains to hold it down.
    await h.database.db.update(customers).set({ gradePoint: 45 }).where(eq(customers.id, customer.customerId));
    const info = await h.app.inject({ method: 'GET', url: '/api/payment/info', headers: bearer(customer.token) });
    expect(info.json().limitPrice).toBe(200_000);
  });

  it('a grade down lowers a limit risk set above the new grade’s', async () => {
    const customer = await h.signUp();
    await h.database.db.update(customers).set({ gradePoint: 45 }).where(eq(customers.id, customer.customerId));
    expect((await setLimit(customer.customerId, { limit: 150_000, reason: '골드 한도 일부 제한' })).statusCode).toBe(
      200,
    );
    await h.database.db.update(customers).set({ gradePoint: 10 }).where(eq(customers.id, customer.customerId));
    const info = await h.app.inject({ method: 'GET', url: '/api/payment/info', headers: bearer(customer.token) });
    expect(info.json().limitPrice).toBe(100_000);
  });
});

describe('a changed limit is told (docs/rules/notifications.md#N2, bills-and-grades.md#B3)', () => {
  const limitNotices = async (customerId: number) =>
    (await noticesAfterDispatch(h, customerId))
      .filter((n) => n.kind === 'limit_changed')
      .map((n) => ({ category: n.category, title: n.title, body: n.body, link: n.link }));
  const statusOf = async (token: string) => {
    const res = await h.app.inject({ method: 'GET', url: '/api/payment/statements', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };
  const logIn = async (emailId: string) =>
    (await h.app.inject({ method: 'POST', url: '/auth', payload: { emailId, pwd: 'password1!' } })).json()
      .accessToken as string;

  it('sends one 결제·청구 notice per change, with its numbers, down and up; the same limit again sends none', async () => {
    const customer = await h.signUp(); // bronze: 100,000 KRW a month
    expect((await setLimit(customer.customerId, { limit: 50_000, reason: '소득 확인 전 한도 하향' })).statusCode).toBe(
      200,
    );
    const down = {
      category: 'billing',
      title: '월 한도 조정',
      body: '월 한도가 100,000원에서 50,000원으로 조정됐어요.',
      link: '/payment',
    };
    expect(await limitNotices(customer.customerId)).toEqual([down]);

    // Dispatched again (an instance that died after the notice and before marking the event): still one.
    await h.database.db
      .update(domainEvents)
      .set({ dispatchedAt: null })
      .where(and(eq(domainEvents.customerId, customer.customerId), eq(domainEvents.type, 'credit_limit.changed')));
    expect(await limitNotices(customer.customerId)).toEqual([down]);

    expect((await setLimit(customer.customerId, { limit: 80_000, reason: '상환 확인' })).statusCode).toBe(200);
    expect((await setLimit(customer.customerId, { limit: 80_000, reason: '재확인' })).statusCode).toBe(200);
    expect((await setLimit(customer.customerId, { limit: 100_000, reason: '원복' })).statusCode).toBe(200);
    expect((await limitNotices(customer.customerId)).map((n) => n.body)).toEqual([
      '월 한도가 100,000원에서 50,000원으로 조정됐어요.',
      '월 한도가 50,000원에서 80,000원으로 조정됐어요.',
      '월 한도가 80,000원에서 100,000원으로 조정됐어요.',
    ]);
    // Nobody else hears of it.
    const other = await h.signUp();
    expect(await limitNotices(other.customerId)).toEqual([]);
  });

  it('is no longer told once a grade change moved the limit again', async () => {
    const customer = await h.signUp();
    await h.database.db.update(customers).set({ gradePoint: 45 }).where(eq(customers.id, customer.customerId));
    const set = await setLimit(customer.customerId, { limit: 150_000, reason: '골드 한도 일부 제한' });
    expect(set.statusCode, set.body).toBe(200);
    expect((await statusOf(customer.token)).limitChange).toMatchObject({ from: 200_000, to: 150_000 });
    await h.database.db.update(customers).set({ gradePoint: 10 }).where(eq(customers.id, customer.customerId));
    expect((await statusOf(customer.token)).limitChange).toBeNull();
  });

  // Last in the file: it moves the clock past every session, the operator's too.
  it('/api/payment/statements carries the latest change while it holds, for the /payment card', async () => {
    const customer = await h.signUp();
    expect((await statusOf(customer.token)).limitChange).toBeNull();
    await setLimit(customer.customerId, { limit: 50_000, reason: '한도 하향' });
    expect((await statusOf(customer.token)).limitChange).toEqual({
      from: 100_000,
      to: 50_000,
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*\+09:00$/),
    });
    await setLimit(customer.customerId, { limit: 70_000, reason: '한도 상향' });
    expect((await statusOf(customer.token)).limitChange).toMatchObject({ from: 50_000, to: 70_000 });
    // Setting the limit in force again changes nothing: the latest real change is still told.
    await setLimit(customer.customerId, { limit: 70_000, reason: '재확인' });
    expect((await statusOf(customer.token)).limitChange).toMatchObject({ from: 50_000, to: 70_000 });
    // Old news is not told (a new login: the first token expired meanwhile).
    h.clock.advance(LIMIT_CHANGE_SHOWN_DAYS * 24 * 60 * 60 * 1000 - 60_000);
    expect((await statusOf(await logIn(customer.emailId))).limitChange).toMatchObject({ to: 70_000 });
    h.clock.advance(2 * 60_000);
    expect((await statusOf(await logIn(customer.emailId))).limitChange).toBeNull();
  });
});
