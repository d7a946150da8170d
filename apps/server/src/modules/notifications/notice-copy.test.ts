import type { CustomerEvent } from '@ohgood/contract/domain-events';
import { describe, expect, it } from 'vitest';
import { noticesOf } from './notice-copy';

/*
 * The notices' Korean copy as a customer reads it (docs/rules/notifications.md#N2): every amount of won,
 * points or grade points is written with the thousands separator, as every screen writes it ('4,419P').
 */

const customerId = 7;
const requestId = '00000000-0000-4000-8000-000000000001';

/** A refund of a 12,500원 payment: unpaid (payout 0) or already repaid. */
const refund = (amounts: { payout: number; pointsReturned: number; pointsTakenBack: number }): CustomerEvent => ({
  type: 'payment.refunded',
  customerId,
  paymentId: 1,
  requestId,
  merchantId: 1,
  price: 12_500,
  ...amounts,
});

/** One event of each kind whose notice carries a number, each number large enough to need a separator. */
const EVENTS: CustomerEvent[] = [
  {
    type: 'payment.completed',
    customerId,
    paymentId: 1,
    requestId,
    merchantId: 1,
    requestName: '아이스 라떼',
    totalPrice: 12_500,
    pointUsed: 4_419,
    price: 8_081,
    pointEarned: 16,
    month: '2026-11',
  },
  refund({ payout: 0, pointsReturned: 4_419, pointsTakenBack: 0 }),
  refund({ payout: 12_500, pointsReturned: 0, pointsTakenBack: 1_250 }),
  { type: 'statement.issued', customerId, month: '2026-11', amount: 123_456, lines: 3, dueDate: '2026-12-15' },
  {
    type: 'bill.reminder',
    customerId,
    month: '2026-11',
    amount: 123_456,
    dueDate: '2026-12-15',
    daysLeft: 3,
    autopay: false,
  },
  { type: 'autopay.succeeded', customerId, month: '2026-11', amount: 123_456, date: '2026-12-15' },
  { type: 'autopay.surplus_refunded', customerId, month: '2026-11', amount: 12_500, date: '2026-12-15' },
  {
    type: 'autopay.failed',
    customerId,
    month: '2026-11',
    amount: 123_456,
    date: '2026-12-15',
    reason: 'insufficient_funds',
  },
  { type: 'statement.extended', customerId, month: '2026-11', by: 'JOB', dueDate: '2027-01-31', penalty: 1_500 },
  { type: 'credit_limit.changed', customerId, from: 100_000, to: 50_000, creditLimit: 50_000 },
  { type: 'statement.overdue', customerId, month: '2026-11', amount: 123_456, penalty: 2_000 },
  {
    type: 'points.posted',
    customerId,
    amount: 1_000,
    reason: 'CHECKIN_ROULETTE',
    refType: 'checkin',
    refId: '2026-11-10',
    balance: 5_419,
  },
  { type: 'shorts.watch_cap_reached', customerId, date: '2026-11-10', limit: 1_000 },
];

const texts = (event: CustomerEvent) =>
  noticesOf(event, 1, { autopay: false }).map((notice) => `${notice.title} ${notice.body}`);

describe('notice copy (docs/rules/notifications.md#N2)', () => {
  it('writes every number of a notice with the thousands separator', () => {
    const written = EVENTS.flatMap(texts);
    expect(written).toHaveLength(EVENTS.length);
    // A run of four digits or more is a number written without its separator.
    for (const text of written) expect(text).not.toMatch(/\d{4,}/);
  });

  it('says the points a payment used, the roulette prize and the watch cap as the screens do', () => {
    const byType = (type: CustomerEvent['type']) => EVENTS.filter((event) => event.type === type).flatMap(texts);
    const [payment, roulette, cap] = [
      byType('payment.completed'),
      byType('points.posted'),
      byType('shorts.watch_cap_reached'),
    ];
    expect(payment[0]).toContain('아이스 라떼 12,500원 결제가 완료됐어요. (포인트 4,419P 사용)');
    expect(roulette[0]).toContain('출석 룰렛에서 1,000P가 당첨됐어요.');
    expect(cap[0]).toContain('오늘 받을 수 있는 시청 포인트 1,000P를 모두 받았어요.');
  });
});
