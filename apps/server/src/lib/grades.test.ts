import { GRADES, gradeOf, nextGrade, pointsToNextGrade } from '@ohgood/contract/grades';
import { describe, expect, it } from 'vitest';

describe('grades (docs/rules/bills-and-grades.md#G1, #G4)', () => {
  it('cover 0–150 without gaps or overlaps, with limits and rates rising together', () => {
    for (let gp = 0; gp <= 150; gp++) {
      expect(GRADES.filter((g) => gp >= g.min && gp <= g.max)).toHaveLength(1);
    }
    for (let i = 1; i < GRADES.length; i++) {
      const [lower, upper] = [GRADES[i - 1], GRADES[i]];
      expect(upper?.min).toBe((lower?.max ?? 0) + 1);
      expect(upper?.monthlyLimit).toBeGreaterThan(lower?.monthlyLimit ?? Infinity);
      expect(upper?.pointPercent).toBeGreaterThan(lower?.pointPercent ?? Infinity);
    }
  });

  it('clamp out-of-range grade points and name the next grade with the points still missing', () => {
    expect(gradeOf(-7).name).toBe('bronze');
    expect(gradeOf(999).name).toBe('diamond');
    expect(gradeOf(41).name).toBe('gold');
    expect(pointsToNextGrade(5)).toBe(16);
    expect(nextGrade(5)?.name).toBe('silver');
    expect(pointsToNextGrade(95)).toBeNull();
    expect(nextGrade(150)).toBeNull();
  });
});
