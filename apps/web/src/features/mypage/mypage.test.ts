import { describe, expect, it } from 'vitest';
import { FAQ } from './faq';
import { gradeProgress } from './mypage-page';

describe('my page', () => {
  it('measures progress within the current grade', () => {
    expect(gradeProgress(0)).toBe(0);
    expect(gradeProgress(5)).toBe(24);
    expect(gradeProgress(21)).toBe(0);
    expect(gradeProgress(60)).toBe(95);
    expect(gradeProgress(120)).toBe(100);
  });
  it('has the seven FAQ topics', () => {
    expect(FAQ).toHaveLength(7);
    expect(FAQ.map((f) => f.q).join(' ')).toMatch(/BNPL.*즉시 납부.*포인트.*등급.*오굿 점수.*연장.*연체/);
  });
});
