import { SPENDING_CATEGORIES } from '@ohgood/contract/report-rules';
import { describe, expect, it } from 'vitest';
import { barHeights, CATEGORY_COLORS, chartAmount, gaugePercent, monthShort } from './report-format';

describe('report formatting', () => {
  it('fills the gauge with score / 1000, clamped to 0–100 %', () => {
    expect(gaugePercent(838)).toBeCloseTo(83.8);
    expect(gaugePercent(1000)).toBe(100);
    expect(gaugePercent(1200)).toBe(100);
    expect(gaugePercent(-5)).toBe(0);
  });

  it('labels chart amounts in 만원 and 천원', () => {
    expect(chartAmount(41_000)).toBe('4.1만원');
    expect(chartAmount(120_000)).toBe('12만원');
    expect(chartAmount(10_000)).toBe('1만원');
    expect(chartAmount(9_999)).toBe('9천원');
    expect(chartAmount(1_000)).toBe('1천원');
    expect(chartAmount(500)).toBe('500원');
    expect(chartAmount(0)).toBe('0원');
    expect(monthShort('2026-09')).toBe('9월');
  });

  it('gives every category its own fixed colour', () => {
    const colours = SPENDING_CATEGORIES.map((name) => CATEGORY_COLORS[name]);
    expect(new Set(colours).size).toBe(SPENDING_CATEGORIES.length);
  });

  it('scales bars to the tallest month, keeping small months visible and empty ones flat', () => {
    expect(barHeights([50_000, 100_000, 0, 1_000])).toEqual([50, 100, 0, 4]);
    expect(barHeights([0, 0])).toEqual([0, 0]);
  });
});
