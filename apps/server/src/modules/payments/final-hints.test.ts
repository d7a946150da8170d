import { describe, expect, it } from 'vitest';
import { createFinalHints } from './final-hints';

const facts = { suspended: false, pointBalance: 700, gradePoint: 10, owed: 5_000 };
const expiresAt = new Date('2026-11-23T01:00:00Z');

describe('createFinalHints', () => {
  it('answers what a final would read for a customer and the request that customer reserved', () => {
    const hints = createFinalHints();
    hints.customer(7, facts, '2026-11');
    hints.request('r1', { customerId: 7, totalPrice: 3_000, expiresAt });
    expect(hints.seen(7, 'r1', '2026-11')).toEqual({
      suspended: false,
      pointBalance: 700,
      gradePoint: 10,
      owed: 5_000,
      request: { status: 'ACTIVE', reservedBy: 7, expiresAt, totalPrice: 3_000 },
      requestAnswer: null,
      callerAnswer: null,
    });
  });

  it('knows nothing for another customer, another month, an unknown or a forgotten request', () => {
    const hints = createFinalHints();
    hints.customer(7, facts, '2026-11');
    hints.customer(8, facts, '2026-11');
    hints.request('r1', { customerId: 7, totalPrice: 3_000, expiresAt });
    expect(hints.seen(8, 'r1', '2026-11')).toBeUndefined();
    expect(hints.seen(7, 'r1', '2026-12')).toBeUndefined();
    expect(hints.seen(7, 'r2', '2026-11')).toBeUndefined();
    hints.forgetRequest('r1');
    expect(hints.seen(7, 'r1', '2026-11')).toBeUndefined();
  });

  it('keeps the newest facts and at most `capacity` entries of each kind, dropping the oldest', () => {
    const hints = createFinalHints(2);
    hints.customer(1, facts, '2026-11');
    hints.customer(2, facts, '2026-11');
    hints.customer(1, { ...facts, pointBalance: 50 }, '2026-11');
    hints.customer(3, facts, '2026-11');
    for (const id of ['a', 'b', 'c']) hints.request(id, { customerId: 1, totalPrice: 100, expiresAt });
    expect(hints.seen(1, 'c', '2026-11')?.pointBalance).toBe(50);
    expect(hints.seen(1, 'a', '2026-11')).toBeUndefined();
    hints.request('x', { customerId: 2, totalPrice: 100, expiresAt });
    expect(hints.seen(2, 'x', '2026-11')).toBeUndefined();
  });
});
