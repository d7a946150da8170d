import type { UnpaidLine } from '@ohgood/contract/bills';
import { describe, expect, it } from 'vitest';
import { checkExtension, dDay, dueDayLabel, groupBadge, groupBills, paymentMonth, selectableIds } from './bill-rules';

const line = (paymentId: number, date: string): UnpaidLine => ({
  paymentId,
  date,
  requestName: `상품${paymentId}`,
  price: 1000,
  totalPrice: 1000,
  point: 0,
});

describe('bill rules', () => {
  it('groups by KST month and locks current-month lines while earlier bills exist', () => {
    const groups = groupBills(
      [
        [line(1, '2026-10-31T23:59:00+09:00')],
        [line(2, '2026-11-01T00:00:00+09:00'), line(3, '2026-11-05T10:00:00+09:00')],
      ],
      '2026-11',
    );
    expect(groups.map((g) => [g.month, g.dueNow])).toEqual([
      ['2026-10', true],
      ['2026-11', false],
    ]);
    expect([...selectableIds(groups)]).toEqual([1]);
    // Once the earlier month is paid, the current month becomes selectable.
    expect([...selectableIds(groups.slice(1))]).toEqual([2, 3]);
  });

  it('mirrors the extension rule: nothing due now → not allowed; already extended → already', () => {
    const current = groupBills([[line(1, '2026-11-05T10:00:00+09:00')]], '2026-11');
    const previous = groupBills([[line(1, '2026-10-05T10:00:00+09:00')]], '2026-11');
    expect(checkExtension([], false)).toBe('not-issued');
    expect(checkExtension(current, false)).toBe('not-issued');
    expect(checkExtension(previous, true)).toBe('already');
    expect(checkExtension(previous, false)).toBe('ok');
    // Each refusal has its rule: overdue, or past the original due date.
    expect(checkExtension(previous, false, { status: 'OVERDUE', dueDate: '2026-11-15' }, '2026-11-20')).toBe('overdue');
    expect(checkExtension(previous, false, { status: 'DUE', dueDate: '2026-11-15' }, '2026-11-16')).toBe('past-due');
    expect(checkExtension(previous, false, { status: 'DUE', dueDate: '2026-11-15' }, '2026-11-15')).toBe('ok');
    expect(groupBadge({ dueNow: true }, { status: 'EXTENDED', extension: 'MANUAL' })).toEqual({
      text: '연장됨 · 말일 납부',
      tone: 'neutral',
    });
    expect(groupBadge({ dueNow: true }, { status: 'DUE', extension: null })?.text).toBe('납부 기한 도래');
    expect(groupBadge({ dueNow: true }, { status: 'OVERDUE', extension: 'AUTO' })?.tone).toBe('danger');
  });

  it('labels due dates and D-days across month and year ends', () => {
    expect(dueDayLabel({ extension: null })).toBe('15일');
    expect(dueDayLabel({ extension: 'AUTO' })).toBe('말일');
    expect(paymentMonth('2026-12')).toBe('2027-01');
    expect(paymentMonth('2026-10')).toBe('2026-11');
    expect(dDay('2026-12-28', '2027-01-15')).toBe('D-18');
    expect(dDay('2026-12-15', '2026-12-15')).toBe('D-Day');
    expect(dDay('2027-01-02', '2026-12-31')).toBe('D+2');
  });
});
