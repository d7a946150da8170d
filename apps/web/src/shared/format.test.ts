import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { number, points, won } from './format';

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
