import type { AdviceReport, ScoreReport, SpendingAnalysis } from '@ohgood/contract/report';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, merchants, purchases, statements } from '../../db/schema';
import { withTx } from '../../db/tx';
import { ensureDemoMerchants } from '../../seed/demo-merchants';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { insertPurchase } from '../../test/purchase-fixture';
import { refundPurchaseOfRequest } from '../payments/refund';

let h: Harness;
beforeAll(async () => {
  // 12:00 KST on 12 November 2026: October's statement is due in 3 days.
  h = await createHarness({ now: '2026-11-12T03:00:00Z' });
});
afterAll(() => h.close());

async function post<T>(url: string, token: string, payload?: unknown): Promise<T> {
  const res = await h.app.inject({ method: 'POST', url, headers: bearer(token), payload: payload as object });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  expect(body.success).toBe(true);
  return body.data as T;
}

const at = (iso: string) => new Date(iso);

describe('report endpoints on a real database', () => {
  it('needs a token', async () => {
    for (const url of ['/api/dash/saymyname', '/api/dash/analyze', '/api/dash/advice']) {
      const res = await h.app.inject({ method: 'POST', url });
      expect(res.statusCode).toBe(401);
    }
  });

  it('gives a customer without purchases a complete, sensible report', async () => {
    const { token } = await h.signUp({ name: '새고객' });
    const score = await post<ScoreReport>('/api/dash/saymyname', token);
    expect(score).toMatchObject({ ohgoodScore: 838, band: 'A' });
    expect(score.message).toContain('새고객님');
    expect(score.factors).toHaveLength(8);

    const analysis = await post<SpendingAnalysis>('/api/dash/analyze', token);
    expect(analysis.months).toEqual(['2026-09', '2026-10', '2026-11']);
    expect(analysis.period).toBe('9월 ~ 11월');
    expect(analysis.selectedMonth).toBe('2026-11');
    expect(Object.values(analysis.monthly)).toEqual([
      { totalSpend: 0, categories: [] },
      { totalSpend: 0, categories: [] },
      { totalSpend: 0, categories: [] },
    ]);

    const advice = await post<AdviceReport>('/api/dash/advice', token);
    expect(advice.advices.map((a) => a.id)).toEqual(['welcome']);
    expect(advice.meta).toMatchObject({ month: '2026-11', source: 'rules', count: 1 });
  });

  it('analyses real purchases: merchant category first, keywords without one, refunds excluded', async () => {
    const { token, customerId } = await h.signUp();
    const ids = await ensureDemoMerchants(h.database.db);
    const [noCategory] = await h.database.db
      .insert(merchants)
      .values({ name: '무명 상점', category: null })
      .returning({ id: merchants.id });
    await insertPurchase(h.database.db, {
      customerId,
      totalPrice: 12_000,
      requestName: '택시 요금', // the merchant's category (식비) wins over the keyword
      merchantId: ids.get('스타벅스 강남점'),
      at: at('2026-11-03T03:00:00Z'),
    });
    await insertPurchase(h.database.db, {
      customerId,
      totalPrice: 8_000,
      pointUsed: 2_000, // the bill line is 6,000: the report counts what is billed
      requestName: 'CGV 관람권',
      merchantId: noCategory?.id,
      at: at('2026-11-04T03:00:00Z'),
    });
    const refunded = await insertPurchase(h.database.db, {
      customerId,
      totalPrice: 50_000,
      requestName: '올리브영 세트',
      merchantId: noCategory?.id,
      at: at('2026-11-05T03:00:00Z'),
    });
    await insertPurchase(h.database.db, {
      customerId,
      totalPrice: 4_000,
      requestName: '상품',
      merchantId: noCategory?.id,
      at: at('2026-09-30T14:59:00Z'), // 23:59 KST on 30 September
    });
    const [row] = await h.database.db.select().from(purchases).where(eq(purchases.id, refunded));
    await withTx(h.database.db, (tx) => refundPurchaseOfRequest(tx, row?.requestId ?? '', h.clock.now()));

    const analysis = await post<SpendingAnalysis>('/api/dash/analyze', token, { windowMonths: 3 });
    expect(analysis.monthly['2026-11']).toEqual({
      totalSpend: 18_000,
      categories: [
        { name: '식비', amount: 12_000, percentage: 66.7, rank: 1 },
        { name: '여가/문화/교육', amount: 6_000, percentage: 33.3, rank: 2 },
      ],
    });
    expect(analysis.monthly['2026-10']).toEqual({ totalSpend: 0, categories: [] });
    expect(analysis.monthly['2026-09']?.categories).toEqual([
      { name: '기타', amount: 4_000, percentage: 100, rank: 1 },
    ]);

    const one = await post<SpendingAnalysis>('/api/dash/analyze', token, { windowMonths: 1 });
    expect(one.months).toEqual(['2026-11']);
    const year = await post<SpendingAnalysis>('/api/dash/analyze', token, { windowMonths: 12 });
    expect(year.months[0]).toBe('2025-12');
    expect(year.months).toHaveLength(12);
  });

  it('accepts windowMonths 1–12 only', async () => {
    const { token } = await h.signUp();
    for (const windowMonths of [0, 13, 2.5, -1, 'abc']) {
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/dash/analyze',
        headers: bearer(token),
        payload: { windowMonths },
      });
      expect(res.statusCode, String(windowMonths)).toBe(400);
      expect(res.json()).toMatchObject({ success: false });
    }
    expect((await post<SpendingAnalysis>('/api/dash/analyze', token, {})).months).toHaveLength(3);
  });

  it('scores from statements and grade: an auto-extended statement due this month costs 154 points', async () => {
    const { token, customerId } = await h.signUp({ name: '연장왕' });
    await insertPurchase(h.database.db, { customerId, totalPrice: 30_000, at: at('2026-10-10T03:00:00Z') });
    await h.database.db
      .update(statements)
      .set({ extension: 'AUTO', extendedAt: at('2026-10-16T00:00:00Z') })
      .where(and(eq(statements.customerId, customerId), eq(statements.month, '2026-10')));
    await h.database.db.update(customers).set({ gradePoint: 30 }).where(eq(customers.id, customerId));
    const score = await post<ScoreReport>('/api/dash/saymyname', token);
    expect(score.factors[0]).toMatchObject({ key: 'autoExtendedNow', contribution: 154 });
    expect(score.factors.find((f) => f.key === 'autoExtensions12m')?.detail).toBe('자동 연장 1회');
    expect(score.factors.find((f) => f.key === 'purchases12m')?.detail).toBe('이용 1회');
    expect(score.message).toContain('연장왕님');
    expect(score.ohgoodScore).toBeLessThan(838);
  });

  it('advises on a statement due in 3 days with its amount', async () => {
    const { token, customerId } = await h.signUp();
    await insertPurchase(h.database.db, { customerId, totalPrice: 41_500, at: at('2026-10-20T03:00:00Z') });
    const advice = await post<AdviceReport>('/api/dash/advice', token);
    const due = advice.advices.find((a) => a.id === 'due-soon-2026-10');
    expect(due).toMatchObject({ level: 'HIGH', refs: [{ path: '/payment' }] });
    expect(due?.body).toContain('41,500원');
    expect(due?.body).toContain('D-3');
    expect(advice.advices[0]?.level).toBe('HIGH');
  });

  it('IDOR: another customer’s id in the body or query changes nothing', async () => {
    const owner = await h.signUp({ name: '주인' });
    await insertPurchase(h.database.db, {
      customerId: owner.customerId,
      totalPrice: 99_000,
      at: at('2026-11-02T03:00:00Z'),
    });
    const other = await h.signUp({ name: '타인' });
    const plain = {
      score: await post<ScoreReport>('/api/dash/saymyname', other.token),
      analysis: await post<SpendingAnalysis>('/api/dash/analyze', other.token),
      advice: await post<AdviceReport>('/api/dash/advice', other.token),
    };
    const id = owner.customerId;
    const prying = {
      score: await post<ScoreReport>(`/api/dash/saymyname?customerId=${id}`, other.token, {
        customerId: id,
        customer_id: id,
      }),
      analysis: await post<SpendingAnalysis>(`/api/dash/analyze?customerId=${id}`, other.token, {
        windowMonths: 3,
        customerId: id,
        customer_id: id,
      }),
      advice: await post<AdviceReport>(`/api/dash/advice?customer_id=${id}`, other.token, { customerId: id }),
    };
    expect(prying.score).toEqual(plain.score);
    expect(prying.analysis).toEqual(plain.analysis);
    expect(prying.advice.advices).toEqual(plain.advice.advices);
    expect(prying.score.message).toContain('타인님');
    expect(prying.analysis.monthly['2026-11']?.totalSpend).toBe(0);
    // The owner's own report does show the purchase.
    const mine = await post<SpendingAnalysis>('/api/dash/analyze', owner.token);
    expect(mine.monthly['2026-11']?.totalSpend).toBe(99_000);
  });
});
