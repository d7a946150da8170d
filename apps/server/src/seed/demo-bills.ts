import { randomBytes } from 'node:crypto';
import { gradeOf } from '@ohgood/contract/grades';
import { addMonths, dateInMonth, daysInMonth, kstDate, kstMonth, kstStartOfDay } from '@ohgood/contract/kst';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customers, paymentRequests, purchases, repayments, statements } from '../db/schema';
import { withTx } from '../db/tx';
import type { Clock } from '../lib/clock';
import { ensureStatement } from '../modules/bills/statements';
import { newPinCode } from '../modules/merchants/pin-code';
import { POINT_REASONS, postPoints } from '../modules/points/ledger';
import { DEMO_CUSTOMER } from './demo-customer';
import { type DemoMerchantName, ensureDemoMerchants } from './demo-merchants';

/** A gold customer: 200,000 KRW a month, 1 % back. */
const DEMO_GRADE_POINT = 48;

type Line = [day: number, merchant: DemoMerchantName, requestName: string, totalPrice: number];

/** What the demo customer buys in a month (day of month, merchant, item, price). Repeats monthly with variety. */
const MONTHLY: Line[][] = [
  [
    [3, '스타벅스 강남점', '카페라떼 외 1건', 11_300],
    [7, 'SKT 통신요금', '5G 요금제', 55_000],
    [12, '올리브영', '선크림', 18_900],
    [21, '카카오T', '택시', 12_400],
  ],
  [
    [2, 'GS25', '도시락', 5_900],
    [9, 'CGV 용산', '영화 관람권 2매', 30_000],
    [14, '배달의민족', '치킨', 23_000],
    [25, '동네세탁소', '세탁', 9_000],
  ],
  [
    [5, '스타벅스 강남점', '아메리카노', 4_500],
    [7, 'SKT 통신요금', '5G 요금제', 55_000],
    [18, '올리브영', '립밤 외 2건', 27_600],
    [27, 'GS25', '생수 외 3건', 8_200],
  ],
];

/** The previous month stays unpaid (something to extend and pay on /payment); the current month is open. */
const PREVIOUS: Line[] = [
  [4, '스타벅스 강남점', '카페라떼', 5_200],
  [11, '카카오T', '택시', 14_800],
  [19, '올리브영', '클렌징폼', 16_500],
  [26, 'GS25', '삼각김밥 외 2건', 6_300],
];
const CURRENT: Line[] = [
  [1, 'GS25', '커피 우유', 2_400],
  [2, '스타벅스 강남점', '돌체라떼', 6_100],
  [3, 'CGV 용산', '영화 관람권', 15_000],
  [4, '배달의민족', '떡볶이', 17_500],
];

/** 14:00 KST on day `day` of `month` (clamped to the month's length). */
function at(month: string, day: number): Date {
  const d = Math.min(day, daysInMonth(month));
  return new Date(kstStartOfDay(dateInMonth(month, d)).getTime() + 14 * 3600_000);
}

/**
 * Six months of the demo customer's life (docs/rules/demo-data.md#E1): four repaid statements, an unpaid statement of
 * last month and the open current one, across every category. Runs once: skipped when the customer has any purchase.
 * Dates are relative to the clock, so the demo always looks current.
 */
export async function seedDemoBills(db: Db, clock: Clock): Promise<void> {
  const [customer] = await db.select().from(customers).where(eq(customers.email, DEMO_CUSTOMER.email));
  if (!customer) return;
  const [any] = await db
    .select({ id: purchases.id })
    .from(purchases)
    .where(eq(purchases.customerId, customer.id))
    .limit(1);
  if (any) return;

  const now = clock.now();
  const current = kstMonth(now);
  const merchantIds = await ensureDemoMerchants(db);
  const rate = gradeOf(DEMO_GRADE_POINT).pointPercent;

  await withTx(db, async (tx) => {
    await tx.update(customers).set({ gradePoint: DEMO_GRADE_POINT }).where(eq(customers.id, customer.id));
    const buy = async (month: string, [day, merchant, requestName, totalPrice]: Line, when: Date) => {
      const merchantId = merchantIds.get(merchant) ?? 0;
      const [request] = await tx
        .insert(paymentRequests)
        .values({
          merchantId,
          orderId: `demo-${randomBytes(8).toString('hex')}`,
          requestName,
          totalPrice,
          pinCode: newPinCode(),
          qrToken: randomBytes(16).toString('hex'),
          status: 'PAID',
          reservedBy: customer.id,
          expiresAt: new Date(when.getTime() + 120_000),
          paidAt: when,
          closedAt: when,
          createdAt: when,
        })
        .returning({ id: paymentRequests.id });
      const pointEarned = Math.floor((totalPrice * rate) / 100);
      const [row] = await tx
        .insert(purchases)
        .values({
          customerId: customer.id,
          merchantId,
          requestId: request?.id ?? '',
          requestName,
          totalPrice,
          pointUsed: 0,
          price: totalPrice,
          pointEarned,
          statementMonth: month,
          createdAt: when,
        })
        .returning({ id: purchases.id });
      if (!row) throw new Error(`demo purchase ${day} ${requestName} failed`);
      await ensureStatement(tx, customer.id, month);
      if (pointEarned > 0) {
        await postPoints(tx, {
          customerId: customer.id,
          amount: pointEarned,
          reason: POINT_REASONS.paymentEarn,
          refType: 'purchase',
          refId: String(row.id),
          idempotencyKey: `purchase:${row.id}:earn`,
          at: when,
        });
      }
      return { id: row.id, price: totalPrice };
    };

    // Four repaid months, each settled in one repayment on the 10th of the next month.
    for (let back = 5; back >= 2; back--) {
      const month = addMonths(current, -back);
      const lines = [];
      for (const line of MONTHLY[back % MONTHLY.length] ?? []) lines.push(await buy(month, line, at(month, line[0])));
      const paidAt = at(addMonths(month, 1), 10);
      const amount = lines.reduce((sum, line) => sum + line.price, 0);
      const [repayment] = await tx
        .insert(repayments)
        .values({
          customerId: customer.id,
          amount,
          purchaseIds: lines.map((line) => line.id),
          account: customer.account,
          accountName: customer.accountName,
          createdAt: paidAt,
        })
        .returning({ id: repayments.id });
      for (const line of lines) {
        await tx
          .update(purchases)
          .set({ status: 'PAID', paidAt, repaymentId: repayment?.id ?? null })
          .where(eq(purchases.id, line.id));
      }
      await tx
        .update(statements)
        .set({ paidAt })
        .where(and(eq(statements.customerId, customer.id), eq(statements.month, month)));
    }

    const previous = addMonths(current, -1);
    for (const line of PREVIOUS) await buy(previous, line, at(previous, line[0]));

    // Current month: spread over the days so far; on the 1st, over the hours before now.
    const today = Number(kstDate(now).slice(8, 10));
    for (const [index, line] of CURRENT.entries()) {
      const day = Math.min(line[0], today);
      let when = at(current, day);
      if (when.getTime() > now.getTime()) when = new Date(now.getTime() - (CURRENT.length - index) * 60_000);
      await buy(current, line, when);
    }
  });
}
