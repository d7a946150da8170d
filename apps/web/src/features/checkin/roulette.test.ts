import { describe, expect, it } from 'vitest';
import { landingRotation, PRIZES, prizeAt } from './roulette';

describe('roulette wheel', () => {
  it('has the six spec prizes', () => {
    expect(PRIZES).toEqual([5, 10, 20, 30, 40, 50]);
  });

  it('lands every server prize under the pointer after at least five full turns', () => {
    for (const prize of PRIZES) {
      const rotation = landingRotation(prize);
      expect(rotation).toBeGreaterThanOrEqual(5 * 360);
      expect(prizeAt(rotation)).toBe(prize);
    }
  });

  it('refuses a prize that is not on the wheel', () => {
    expect(() => landingRotation(7)).toThrow();
  });
});
