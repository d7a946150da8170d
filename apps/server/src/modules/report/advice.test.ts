import type { StatementSummary } from '@ohgood/contract/bills';
import { describe, expect, it } from 'vitest';
import { type AdviceInputs, buildAdvice } from './advice';

/** A customer with purchases and nothing to warn about: the positive note only. */
const CALM: AdviceInputs = {
  name: '김오굿',
  today: '2026-11-22',
  hasPurchases: true,
  spendThisMonth: 60_000,
  spendLastMonth: 55_000,
  categoriesThisMonth: [
    { name: '식비', amount: 20_000, percentage: 33.3, rank: 1 },
    { name: '생활', amount: 20_000, percentage: 33.3, rank: 1 },
    { name: '교통비', amount: 20_000, percentage: 33.3, rank: 1 },
  ],
  monthlyLimit: 200_000,
  pointBalance: 999,
  suspended: false,
  overdueAmount: 0,
  statements: [{ month: '2026-11', dueDate: '2026-12-15', extension: null, status: 'OPEN', amount: 60_000, count: 3 }],
};

const statement = (s: Partial<StatementSummary>): StatementSummary => ({
  month: '2026-10',
  dueDate: '2026-11-15',
  extension: null,
  status: 'DUE',
  amount: 48_300,
  count: 4,
  ...s,
});

describe('advice rules (report.md#D4)', () => {
  it('a calm month triggers no rule but the positive note, with the customer’s numbers', () => {
    const advices = buildAdvice(CALM);
    expect(advices).toHaveLength(1);
    expect(advices[0]).toMatchObject({ id: 'all-good', level: 'LOW', refs: [{ path: '/payment/details' }] });
    expect(advices[0]?.body).toContain('김오굿님');
    expect(advices[0]?.body).toContain('60,000원');
    expect(advices[0]?.body).toContain('30%');
  });

  it('a statement due within 5 days: amount and D-day, HIGH, linking to /payment', () => {
    const advices = buildAdvice({
      ...CALM,
      today: '2026-11-10',
      statements: [statement({ dueDate: '2026-11-15' }), ...CALM.statements],
    });
    expect(advices.map((a) => a.id)).toEqual(['due-soon-2026-10']);
    expect(advices[0]).toMatchObject({ level: 'HIGH', refs: [{ label: '납부하기', path: '/payment' }] });
    expect(advices[0]?.title).toContain('D-5');
    expect(advices[0]?.body).toContain('48,300원');
    expect(advices[0]?.body).toContain('11월 15일(D-5)');
    // Six days out is not "soon"; the due day itself is D-DAY.
    expect(buildAdvice({ ...CALM, today: '2026-11-09', statements: [statement({})] })[0]?.id).toBe('all-good');
    expect(buildAdvice({ ...CALM, today: '2026-11-15', statements: [statement({})] })[0]?.body).toContain('D-DAY');
  });

  it('an extension in use: the automatic one is HIGH, the manual one MEDIUM, both with amount and due date', () => {
    const auto = buildAdvice({
      ...CALM,
      today: '2026-11-20',
      statements: [statement({ extension: 'AUTO', status: 'EXTENDED', dueDate: '2026-11-30' })],
    });
    expect(auto.map((a) => [a.id, a.level])).toEqual([['extension-2026-10', 'HIGH']]);
    expect(auto[0]?.body).toContain('48,300원');
    expect(auto[0]?.body).toContain('11월 30일까지');
    const manual = buildAdvice({
      ...CALM,
      today: '2026-11-20',
      statements: [statement({ extension: 'MANUAL', status: 'EXTENDED', dueDate: '2026-11-30' })],
    });
    expect(manual.map((a) => [a.id, a.level])).toEqual([['extension-2026-10', 'MEDIUM']]);
  });

  it('an overdue statement: HIGH, with the overdue amount', () => {
    const advices = buildAdvice({
      ...CALM,
      suspended: true,
      overdueAmount: 77_000,
      statements: [statement({ month: '2026-09', status: 'OVERDUE', dueDate: '2026-10-15', amount: 77_000 })],
    });
    expect(advices.map((a) => a.id)).toEqual(['overdue']);
    expect(advices[0]?.body).toContain('9월 청구서 77,000원');
  });

  it('limit use above 80 %: used amount, limit, share and what is left', () => {
    const advices = buildAdvice({
      ...CALM,
      spendThisMonth: 170_000,
      spendLastMonth: 160_000,
      categoriesThisMonth: CALM.categoriesThisMonth,
    });
    expect(advices.map((a) => a.id)).toEqual(['limit-use']);
    expect(advices[0]?.body).toContain('170,000원');
    expect(advices[0]?.body).toContain('200,000원의 85%');
    expect(advices[0]?.body).toContain('남은 한도는 30,000원');
    // Exactly 80 % is not above it.
    expect(buildAdvice({ ...CALM, spendThisMonth: 160_000, spendLastMonth: 160_000 })[0]?.id).toBe('all-good');
  });

  it('spending up more than 20 % on last month: both amounts and the rise', () => {
    const advices = buildAdvice({ ...CALM, spendThisMonth: 66_001, spendLastMonth: 55_000 });
    expect(advices.map((a) => a.id)).toEqual(['spending-rise']);
    expect(advices[0]?.body).toContain('66,001원');
    expect(advices[0]?.body).toContain('55,000원');
    expect(advices[0]?.body).toContain('(20%)');
    expect(buildAdvice({ ...CALM, spendThisMonth: 66_000, spendLastMonth: 55_000 })[0]?.id).toBe('all-good');
    // No baseline, no comparison.
    expect(buildAdvice({ ...CALM, spendLastMonth: 0 })[0]?.id).toBe('all-good');
  });

  it('one category above 40 % of the month: its name, share and amount', () => {
    const advices = buildAdvice({
      ...CALM,
      categoriesThisMonth: [
        { name: '생활', amount: 30_000, percentage: 50, rank: 1 },
        { name: '식비', amount: 30_000, percentage: 50, rank: 1 },
      ],
    });
    expect(advices.map((a) => a.id)).toEqual(['category-share']);
    expect(advices[0]?.title).toBe('소비의 50%가 생활이에요');
    expect(advices[0]?.body).toContain('생활에 30,000원(50%)');
  });

  it('points worth using: the balance in P and in won, next to the positive note', () => {
    const advices = buildAdvice({ ...CALM, pointBalance: 1_250 });
    expect(advices.map((a) => a.id)).toEqual(['points', 'all-good']);
    expect(advices[0]?.body).toContain('1,250P');
    expect(advices[0]?.refs.map((r) => r.path)).toEqual(['/qrpin', '/point/history']);
  });

  it('every rule at once, ordered HIGH → MEDIUM → LOW; no positive note among warnings', () => {
    const advices = buildAdvice({
      ...CALM,
      today: '2026-11-28',
      spendThisMonth: 190_000,
      spendLastMonth: 100_000,
      categoriesThisMonth: [{ name: '식비', amount: 190_000, percentage: 100, rank: 1 }],
      pointBalance: 5_000,
      suspended: true,
      overdueAmount: 10_000,
      statements: [
        statement({ month: '2026-09', status: 'OVERDUE', dueDate: '2026-10-15', amount: 10_000 }),
        statement({ extension: 'MANUAL', status: 'EXTENDED', dueDate: '2026-11-30' }),
      ],
    });
    expect(advices.map((a) => [a.id, a.level])).toEqual([
      ['overdue', 'HIGH'],
      ['due-soon-2026-10', 'HIGH'],
      ['extension-2026-10', 'MEDIUM'],
      ['limit-use', 'MEDIUM'],
      ['spending-rise', 'MEDIUM'],
      ['category-share', 'LOW'],
      ['points', 'LOW'],
    ]);
    for (const advice of advices) {
      expect(advice.refs.length).toBeGreaterThan(0);
      expect(advice.refs.every((ref) => ref.path.startsWith('/'))).toBe(true);
      expect(advice.body).toMatch(/\d/);
    }
  });

  it('a customer without purchases gets a welcome with the limit', () => {
    const advices = buildAdvice({
      ...CALM,
      hasPurchases: false,
      spendThisMonth: 0,
      spendLastMonth: 0,
      categoriesThisMonth: [],
      monthlyLimit: 100_000,
      pointBalance: 0,
      statements: [],
    });
    expect(advices).toHaveLength(1);
    expect(advices[0]).toMatchObject({ id: 'welcome', title: '김오굿님, 환영해요!', refs: [{ path: '/qrpin' }] });
    expect(advices[0]?.body).toContain('100,000원');
  });
});
