import { GRADE_POINTS, GRADES, gradeOf, nextGrade, pointsToNextGrade } from '@ohgood/contract/grades';
import { describe, expect, it } from 'vitest';
import { earnGradePoints, penalizedGradePoint, revokeGradePoints } from '../modules/bills/grade-points';

describe('grades (docs/rules/bills-and-grades.md#G1, #G4)', () => {
  it('cover 0–150 without gaps or overlaps, with limits and rates rising together', () => {
    expect(GRADES[0]?.min).toBe(GRADE_POINTS.min);
    expect(GRADES[GRADES.length - 1]?.max).toBe(GRADE_POINTS.max);
    for (let gp = GRADE_POINTS.min; gp <= GRADE_POINTS.max; gp++) {
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

describe('the grade-point economy (G2, G3): one definition, one clamp', () => {
  const { max, krwPerPoint, overduePenalty } = GRADE_POINTS;
  it('earns a point per full krwPerPoint, carries the rest and stops at the top', () => {
    expect(earnGradePoints({ gradePoint: 3, repaidRemainder: 0 }, 2.5 * krwPerPoint)).toEqual({
      gradePoint: 5,
      repaidRemainder: krwPerPoint / 2,
    });
    expect(earnGradePoints({ gradePoint: max - 1, repaidRemainder: 0 }, 5 * krwPerPoint).gradePoint).toBe(max);
  });
  it('penalties and revocations never go below the floor', () => {
    expect(penalizedGradePoint(overduePenalty + 4, overduePenalty)).toBe(4);
    expect(penalizedGradePoint(overduePenalty - 1, overduePenalty)).toBe(GRADE_POINTS.min);
    expect(revokeGradePoints({ gradePoint: 1, repaidRemainder: 0 }, 3 * krwPerPoint).gradePoint).toBe(GRADE_POINTS.min);
  });
});
