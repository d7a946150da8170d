import { addDays, addMonths, dateInMonth, daysBetween, monthDates } from '@ohgood/contract/kst';
import { describe, expect, it } from 'vitest';

describe('KST month helpers (docs/rules/money-and-time.md)', () => {
  it('step across year ends both ways', () => {
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2027-01', -1)).toBe('2026-12');
    expect(addMonths('2026-11', -23)).toBe('2024-12');
  });
  it('name a day of a month and a month as its half-open range of dates', () => {
    expect(dateInMonth('2026-11', 5)).toBe('2026-11-05');
    expect(monthDates('2026-12')).toEqual({ first: '2026-12-01', nextFirst: '2027-01-01' });
  });
  it('count whole days between two dates, negative when the second is earlier', () => {
    expect(daysBetween('2026-12-28', '2027-01-15')).toBe(18);
    expect(daysBetween('2026-12-17', '2026-12-15')).toBe(-2);
  });
});

it('adds days across a month and a year end, both ways', () => {
  expect(addDays('2026-12-01', -1)).toBe('2026-11-30');
  expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
  expect(addDays('2026-11-15', 0)).toBe('2026-11-15');
});
