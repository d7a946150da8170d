import type { DomainEventOf } from '@ohgood/contract/domain-events';
import { describe, expect, it } from 'vitest';
import { noticesOf } from './notice-copy';

/** The grade notice inserts the new grade's name, so its particle follows that name (the console shows it too). */
describe('the grade-change notice', () => {
  type Grade = DomainEventOf<'grade.changed'>['from'];
  const change = (from: Grade, to: Grade) =>
    noticesOf({ type: 'grade.changed', customerId: 7, reason: 'REPAYMENT', from, to }, 1, { autopay: false })[0]?.body;

  it('says 으로 after a final consonant and 로 otherwise, never (으)로', () => {
    expect(change({ grade: 'gold', gradePoint: 60 }, { grade: 'platinum', gradePoint: 61 })).toBe(
      '등급이 골드에서 플래티넘으로 바뀌었어요.',
    );
    expect(change({ grade: 'bronze', gradePoint: 20 }, { grade: 'silver', gradePoint: 21 })).toBe(
      '등급이 브론즈에서 실버로 바뀌었어요.',
    );
    expect(change({ grade: 'platinum', gradePoint: 61 }, { grade: 'gold', gradePoint: 60 })).toBe(
      '등급이 플래티넘에서 골드로 바뀌었어요.',
    );
  });
});
