import { addMonths, dateInMonth, daysInMonth, kstDate, kstMonth, kstStartOfDay } from '@ohgood/contract/kst';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customers, purchases, repayments, statements } from '../db/schema';
import { withTx } from '../db/tx';
import { recordEvent } from '../events/record-event';
import type { Clock } from '../lib/clock';
import { writeDirectPurchases } from '../modules/payments/direct-purchases';
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

  await withTx(db, async (tx) => {
    await tx.update(customers).set({ gradePoint: DEMO_GRADE_POINT }).where(eq(customers.id, customer.id));
    // Bought through the payments' one writer: each line earns what a real final at this grade earns.
    const buy = async (month: string, lines: readonly (readonly [Line, Date])[]) => {
      const ids = await writeDirectPurchases(
        tx,
        customer.id,
        lines.map(([[, merchant, requestName, totalPrice], when]) => ({
          merchantId: merchantIds.get(merchant) ?? 0,
          requestName,
          totalPrice,
          at: when,
        })),
      );
      if (ids.length !== lines.length) throw new Error(`demo purchases of ${month} failed`);
      return ids.map((id, i) => ({ id, price: lines[i]?.[0][3] ?? 0 }));
    };

    // Four repaid months, each settled in one repayment on the 10th of the next month.
    for (let back = 5; back >= 2; back--) {
      const month = addMonths(current, -back);
      const lines = await buy(
        month,
        (MONTHLY[back % MONTHLY.length] ?? []).map((line) => [line, at(month, line[0])] as const),
      );
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
      if (!repayment) throw new Error(`demo repayment of ${month} failed`);
      for (const line of lines) {
        await tx
          .update(purchases)
          .set({ status: 'PAID', paidAt, repaymentId: repayment.id })
          .where(eq(purchases.id, line.id));
      }
      await tx
        .update(statements)
        .set({ paidAt })
        .where(and(eq(statements.customerId, customer.id), eq(statements.month, month)));
      // The repayment's fact, as a real one records it: the ledger posts it (docs/rules/ledger.md#L2).
      await recordEvent(
        tx,
        {
          type: 'repayment.made',
          customerId: customer.id,
          repaymentId: repayment.id,
          how: 'EARLY',
          amount,
          paymentIds: lines.map((line) => line.id),
          months: [month],
        },
        paidAt,
      );
    }

    const previous = addMonths(current, -1);
    await buy(
      previous,
      PREVIOUS.map((line) => [line, at(previous, line[0])] as const),
    );

    // Current month: spread over the days so far; on the 1st, over the hours before now.
    const today = Number(kstDate(now).slice(8, 10));
    await buy(
      current,
      CURRENT.map((line, index) => {
        const when = at(current, Math.min(line[0], today));
        const past =
          when.getTime() > now.getTime() ? new Date(now.getTime() - (CURRENT.length - index) * 60_000) : when;
        return [line, past] as const;
      }),
    );
  });
}
