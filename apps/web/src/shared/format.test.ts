import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { number, points, relativeTime, relativeWords, won } from './format';

const intl = new Intl.NumberFormat('ko-KR');

describe('number formatting', () => {
  it('writes whole numbers exactly as Intl.NumberFormat("ko-KR") does', () => {
    for (const value of [0, -0, 7, -7, 999, 1000, -1000, 12_500, 1_234_567, Number.MAX_SAFE_INTEGER]) {
      expect(number(value)).toBe(intl.format(value));
    }
    fc.assert(fc.property(fc.maxSafeInteger(), (value) => number(value) === intl.format(value)));
  });

  it('leaves fractions and huge or non-finite numbers to Intl', () => {
    for (const value of [12.5, -0.25, 1e21, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(number(value)).toBe(intl.format(value));
    }
  });

  it('adds the unit', () => {
    expect(won(12_500)).toBe('12,500원');
    expect(points(1_200)).toBe('1,200P');
  });
});

describe('relative time', () => {
  const intl = new Intl.RelativeTimeFormat('ko', { numeric: 'auto' });
  const units = ['minute', 'hour', 'day', 'week', 'month', 'year'] as const;

  it('writes every count of every unit exactly as Intl.RelativeTimeFormat("ko", auto) does', () => {
    for (const unit of units) {
      for (let count = -400; count <= 400; count++) {
        if (count !== 0) expect(relativeWords(count, unit)).toBe(intl.format(count, unit));
      }
    }
    const count = fc.integer({ min: -1e7, max: 1e7 }).filter((n) => n !== 0);
    fc.assert(
      fc.property(count, fc.constantFrom(...units), (n, unit) => relativeWords(n, unit) === intl.format(n, unit)),
      { numRuns: 500 },
    );
  });

  it("sets up no Intl formatter, whose ICU set-up the feed's first slide would pay", () => {
    const made = vi.spyOn(Intl, 'RelativeTimeFormat');
    relativeTime(new Date(Date.now() - 3 * 86400_000));
    expect(made).not.toHaveBeenCalled();
    made.mockRestore();
  });

  it('says the largest unit that fits', () => {
    const now = new Date('2026-11-29T12:00:00+09:00');
    const ago = (seconds: number) => relativeTime(new Date(now.getTime() - seconds * 1000), now);
    expect(ago(30)).toBe('방금 전');
    expect(ago(3 * 60)).toBe('3분 전');
    expect(ago(5 * 3600)).toBe('5시간 전');
    expect(ago(86400)).toBe('어제');
    expect(ago(3 * 86400)).toBe('3일 전');
    expect(ago(2 * 604800)).toBe('2주 전');
    expect(ago(400 * 86400)).toBe('작년');
  });
});
