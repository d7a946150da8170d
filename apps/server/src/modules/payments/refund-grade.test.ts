import { GRADE_POINTS } from '@ohgood/contract/grades';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { customers } from '../../db/schema';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { pay } from '../../test/payment-helpers';
import { earnGradePoints, revokeGradePoints } from '../bills/grade-points';

let h: Harness;
let merchant: Awaited<ReturnType<typeof createMerchant>>;
beforeAll(async () => {
  h = await createHarness();
  merchant = await createMerchant(h.database.db, '환불등급상점');
});
afterAll(() => h.close());

const grade = async (customerId: number) => {
  const [row] = await h.database.db.select().from(customers).where(eq(customers.id, customerId));
  return { gradePoint: row?.gradePoint, repaidRemainder: row?.repaidRemainder };
};
const repay = (token: string, ids: number[]) =>
  h.app.inject({ method: 'POST', url: '/api/payment/immediately', headers: bearer(token), payload: ids });
const refund = (requestId: string) =>
  h.app.inject({
    method: 'POST',
    url: `/api/merchant/payment-requests/${requestId}/refund`,
    headers: merchant.headers,
  });

it('a refund takes back the grade points its repayment earned', async () => {
  const { token, customerId } = await h.signUp();
  const { request, res } = await pay(h, merchant.headers, token, 25_000);
  expect((await repay(token, [res.json().result.paymentId])).statusCode).toBe(200);
  expect(await grade(customerId)).toEqual({ gradePoint: 2, repaidRemainder: 5_000 });
  expect((await refund(request.requestId)).statusCode).toBe(200);
  expect(await grade(customerId)).toEqual({ gradePoint: 0, repaidRemainder: 0 });
  const mypage = await h.app.inject({ method: 'GET', url: '/api/mypage', headers: bearer(token) });
  expect(mypage.json().gradePoint).toBe(0);
});

it('buy → repay → refund in a loop with a colluding merchant never raises the grade or the limit', async () => {
  const { token, customerId } = await h.signUp();
  for (let i = 0; i < 4; i++) {
    const { request, res } = await pay(h, merchant.headers, token, 95_000);
    expect(res.statusCode).toBe(200);
    expect((await repay(token, [res.json().result.paymentId])).statusCode).toBe(200);
    expect((await refund(request.requestId)).statusCode).toBe(200);
  }
  expect(await grade(customerId)).toEqual({ gradePoint: 0, repaidRemainder: 0 });
  const info = await h.app.inject({ method: 'GET', url: '/api/payment/info', headers: bearer(token) });
  expect(info.json().limitPrice).toBe(100_000);
});

it('refunding one of several repaid lines takes back only that line’s share', async () => {
  const { token, customerId } = await h.signUp();
  const a = await pay(h, merchant.headers, token, 12_000);
  const b = await pay(h, merchant.headers, token, 13_000);
  await repay(token, [a.res.json().result.paymentId, b.res.json().result.paymentId]);
  expect(await grade(customerId)).toEqual({ gradePoint: 2, repaidRemainder: 5_000 });
  await refund(a.request.requestId);
  // As if only the 13,000 line had been repaid: 1 point, 3,000 carried.
  expect(await grade(customerId)).toEqual({ gradePoint: 1, repaidRemainder: 3_000 });
});

it('revoking is the exact inverse of earning for any account and amount below the cap', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 100 }),
      fc.integer({ min: 0, max: 9_999 }),
      fc.integer({ min: 1, max: 300_000 }),
      (gradePoint, repaidRemainder, krw) => {
        const before = { gradePoint, repaidRemainder };
        const earned = earnGradePoints(before, krw);
        fc.pre(earned.gradePoint < GRADE_POINTS.max);
        expect(revokeGradePoints(earned, krw)).toEqual(before);
      },
    ),
    { numRuns: 200 },
  );
});
