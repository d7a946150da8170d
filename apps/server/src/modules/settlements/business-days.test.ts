import { describe, expect, it } from 'vitest';
import { addBusinessDays, holidaysKnown, isBusinessDay } from './business-days';

/* Korean business days from the holiday file (docs/rules/settlement.md#M2). */
describe('business days', () => {
  it('skips weekends, public holidays and their substitute days', () => {
    // A Friday is followed by Monday.
    expect(addBusinessDays('2026-09-04', 1)).toBe('2026-09-07');
    // 추석 (9/24–26) and a Sunday.
    expect(addBusinessDays('2026-09-23', 1)).toBe('2026-09-28');
    // 개천절 on a Saturday gives Monday 10/5 as its substitute.
    expect(addBusinessDays('2026-10-02', 1)).toBe('2026-10-06');
    // 설날 2027 (2/5–2/7) and its substitute on Monday 2/8.
    expect(addBusinessDays('2027-02-04', 1)).toBe('2027-02-09');
    // Across the year's end; 신정.
    expect(addBusinessDays('2025-12-31', 1)).toBe('2026-01-02');
    expect(addBusinessDays('2026-05-22', 2)).toBe('2026-05-27');
    expect(isBusinessDay('2026-06-03')).toBe(false); // 지방선거일
    expect(isBusinessDay('2026-06-04')).toBe(true);
  });

  it('knows only weekends in a year the holiday file does not hold', () => {
    expect(holidaysKnown('2027-12-31')).toBe(true);
    expect(holidaysKnown('2028-01-03')).toBe(false);
    // 2028-01-01 is a Saturday: Friday 2027-12-31 is followed by Monday 2028-01-03.
    expect(addBusinessDays('2027-12-31', 1)).toBe('2028-01-03');
  });
});
