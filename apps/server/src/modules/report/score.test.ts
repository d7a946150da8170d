import { SCORE_FACTOR_KEYS, type ScoreFactorKey } from '@ohgood/contract/report-rules';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountRisk, bandOf, computeScore, limitUseRisk, type ScoreInputs } from './score';

const ZERO: ScoreInputs = {
  autoExtendedNow: false,
  extendedNow: false,
  autoExtensions12m: 0,
  suspended: false,
  gradePoint: 0,
  spendThisMonth: 0,
  purchases12m: 0,
  amount12m: 0,
};

describe('OhGood score: the test vectors of report.md#D1', () => {
  it('all-zero inputs → 838', () => {
    expect(computeScore(ZERO).score).toBe(838);
  });

  it('gradePoint 95, 24 purchases, 3.6M, spend 150k → 939', () => {
    const result = computeScore({
      ...ZERO,
      gradePoint: 95,
      purchases12m: 24,
      amount12m: 3_600_000,
      spendThisMonth: 150_000,
    });
    expect(result.score).toBe(939);
    expect(result.band).toBe('A');
  });

  it('extended and auto-extended now, 4 auto-extensions, gradePoint 5, suspended, 2 purchases, 100k, spend 120k → 333', () => {
    const result = computeScore({
      autoExtendedNow: true,
      extendedNow: true,
      autoExtensions12m: 4,
      suspended: true,
      gradePoint: 5,
      purchases12m: 2,
      amount12m: 100_000,
      spendThisMonth: 120_000,
    });
    expect(result.score).toBe(333);
    expect(result.band).toBe('E');
  });
});

describe('OhGood score: factors, bands and the piecewise risks', () => {
  it('lists every factor once with its Korean label, largest contribution first, adding up to the score', () => {
    const result = computeScore({ ...ZERO, autoExtendedNow: true, gradePoint: 30, purchases12m: 6 });
    expect(result.factors.map((f) => f.key).sort()).toEqual([...SCORE_FACTOR_KEYS].sort());
    const contributions = result.factors.map((f) => f.contribution);
    expect(contributions).toEqual([...contributions].sort((a, b) => b - a));
    expect(result.factors[0]).toMatchObject({ key: 'autoExtendedNow', label: '이번 달 자동 연장', contribution: 154 });
    // 1000 − Σ contributions is the score (up to the rounding of each one-decimal contribution).
    const lost = contributions.reduce((sum, c) => sum + c, 0);
    expect(Math.abs(1000 - lost - result.score)).toBeLessThanOrEqual(1);
    expect(result.factors.find((f) => f.key === 'gradePoint')?.detail).toBe('등급 점수 30 / 150');
  });

  it('uses the 12-month monthly average for limit use while this month has no spend', () => {
    const result = computeScore({ ...ZERO, gradePoint: 50, amount12m: 2_400_000, purchases12m: 12 });
    // 2.4M / 12 = 200k of a gold 200k limit: u = 1 → full limit-use risk (70 points).
    expect(result.factors.find((f) => f.key === 'limitUse')).toMatchObject({
      contribution: 70,
      detail: '월평균 200,000원 / 한도 200,000원 (100%)',
    });
  });

  it('bands at 750 / 650 / 550 / 450', () => {
    expect([1000, 750, 749, 650, 649, 550, 549, 450, 449, 300].map(bandOf)).toEqual([
      'A',
      'A',
      'B',
      'B',
      'C',
      'C',
      'D',
      'D',
      'E',
      'E',
    ]);
  });

  it('limit-use and amount risks follow the table at their breakpoints', () => {
    expect([0, 0.3, 0.55, 0.8, 0.9, 1, 2].map(limitUseRisk)).toEqual(
      [0, 0, 0.35, 0.7, 0.85, 1, 1].map((x) => expect.closeTo(x, 10)),
    );
    expect([0, 300_000, 1_650_000, 3_000_000, 20_000_000, 30_000_000, 100_000_000].map(amountRisk)).toEqual(
      [0.8, 0.8, 0.5, 0.2, 0.2, 0.5, 0.8].map((x) => expect.closeTo(x, 10)),
    );
  });
});

const inputs: fc.Arbitrary<ScoreInputs> = fc.record({
  autoExtendedNow: fc.boolean(),
  extendedNow: fc.boolean(),
  autoExtensions12m: fc.integer({ min: 0, max: 12 }),
  suspended: fc.boolean(),
  gradePoint: fc.integer({ min: 0, max: 150 }),
  spendThisMonth: fc.integer({ min: 0, max: 400_000 }),
  purchases12m: fc.integer({ min: 0, max: 500 }),
  amount12m: fc.integer({ min: 0, max: 60_000_000 }),
});

/**
 * One risk input made worse (or left as bad as it was). Spend and amount are compared only while this
 * month's spend is positive: at 0 the score reads limit use from the 12-month amount instead (report.md#D1),
 * so "no spend yet" is not a point on the spend scale.
 */
const flag =
  (key: 'autoExtendedNow' | 'extendedNow' | 'suspended') =>
  (base: ScoreInputs): [ScoreInputs, ScoreInputs] => [
    { ...base, [key]: false },
    { ...base, [key]: true },
  ];

const WORSEN: Record<ScoreFactorKey, (base: ScoreInputs, n: number) => [ScoreInputs, ScoreInputs]> = {
  autoExtendedNow: flag('autoExtendedNow'),
  extendedNow: flag('extendedNow'),
  suspended: flag('suspended'),
  autoExtensions12m: (base, n) => [base, { ...base, autoExtensions12m: base.autoExtensions12m + (n % 5) }],
  gradePoint: (base, n) => [base, { ...base, gradePoint: Math.max(0, base.gradePoint - (n % 151)) }],
  purchases12m: (base, n) => [base, { ...base, purchases12m: Math.max(0, base.purchases12m - (n % 30)) }],
  limitUse: (base, n) => {
    const spend = Math.max(1, base.spendThisMonth);
    return [
      { ...base, spendThisMonth: spend },
      { ...base, spendThisMonth: spend + (n % 500_000) },
    ];
  },
  amount12m: (base, n) => {
    const spend = Math.max(1, base.spendThisMonth);
    const [better = 0, worse = 0] = [base.amount12m, n].sort((a, b) => amountRisk(a) - amountRisk(b));
    return [
      { ...base, spendThisMonth: spend, amount12m: better },
      { ...base, spendThisMonth: spend, amount12m: worse },
    ];
  },
};

const worsened: fc.Arbitrary<[ScoreInputs, ScoreInputs]> = fc
  .tuple(inputs, fc.constantFrom(...SCORE_FACTOR_KEYS), fc.integer({ min: 0, max: 60_000_000 }))
  .map(([base, key, n]) => WORSEN[key](base, n));

describe('OhGood score: properties', () => {
  it('stays an integer within 300–1000, and its band matches it', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const { score, band } = computeScore(input);
        expect(Number.isInteger(score)).toBe(true);
        expect(score).toBeGreaterThanOrEqual(300);
        expect(score).toBeLessThanOrEqual(1000);
        expect(band).toBe(bandOf(score));
      }),
      { numRuns: 500 },
    );
  });

  it('never rises when any one risk input worsens', () => {
    fc.assert(
      fc.property(worsened, ([before, after]) => {
        expect(computeScore(after).score).toBeLessThanOrEqual(computeScore(before).score);
      }),
      { numRuns: 1000 },
    );
  });
});
