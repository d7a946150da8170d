import { BILL_RULES } from '@ohgood/contract/bill-rules';
import { RULE_NUMBERS } from '@ohgood/contract/faq-phrases';
import { GRADE_POINTS, GRADES } from '@ohgood/contract/grades';
import { LIMITS } from '@ohgood/contract/limits';
import { describe, expect, it } from 'vitest';
import { buildFaq, FAQ } from './faq';
import { gradeProgress } from './mypage-page';

const answer = (faq: ReturnType<typeof buildFaq>, topic: string) => faq.find((f) => f.q.includes(topic))?.a ?? '';

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
  it('answers the FAQ with the rule constants', () => {
    expect(answer(FAQ, 'BNPL')).toContain(`다음 달 ${BILL_RULES.dueDay}일에 한 번에 납부`);
    for (const g of GRADES) expect(answer(FAQ, '등급은')).toContain(`${g.label} ${g.min}~${g.max}`);
    expect(answer(FAQ, '등급은')).toContain(`연체되면 ${GRADE_POINTS.overduePenalty}점이 깎여요`);
    expect(answer(FAQ, '포인트')).toContain(`하루 최대 ${LIMITS.dailyWatchPointLimit}P`);
    expect(answer(FAQ, '연장')).toContain(`${BILL_RULES.autoExtensionDay}일에 자동으로 연장되고`);
    expect(answer(FAQ, '연체되면')).toContain('이자나 연체료는 없어요.');
  });
  it('changes an answer when a rule number changes', () => {
    const faq = buildFaq({
      ...RULE_NUMBERS,
      grades: RULE_NUMBERS.grades.map((g, i) => (i === 0 ? { ...g, label: '새싹', monthlyLimit: 50_000 } : g)),
      bill: { ...RULE_NUMBERS.bill, dueDay: 25, autoExtensionDay: 26, overdueDay: 3, lateFeeKrw: 1_500 },
      gradePoints: { ...RULE_NUMBERS.gradePoints, krwPerPoint: 20_000, autoExtensionPenalty: 8 },
      points: { ...RULE_NUMBERS.points, rouletteValues: [1, 99], dailyWatchLimit: 300 },
      score: { ...RULE_NUMBERS.score, min: 100, max: 900 },
      autopay: { debitHour: 9, reminderDays: 2 },
    });
    expect(answer(faq, 'BNPL')).toContain('납부일 오전 9시에 연결 계좌에서 자동 납부');
    expect(answer(faq, 'BNPL')).toContain('2일 전과 당일에 알림');
    expect(answer(faq, 'BNPL')).toContain('다음 달 25일에 한 번에 납부');
    expect(answer(faq, 'BNPL')).toContain('월 5만~30만 원 한도');
    expect(answer(faq, '포인트')).toContain('하루 한 번 1~99P, 쇼츠 시청으로 하루 최대 300P');
    expect(answer(faq, '등급은')).toContain('새싹 0~20');
    expect(answer(faq, '등급은')).toContain('납부일까지 2만 원을 납부할 때마다 1점');
    expect(answer(faq, '등급은')).toContain('자동 연장되면 8점');
    expect(answer(faq, '오굿 점수')).toMatch(/^100~900점으로/);
    expect(answer(faq, '연장')).toContain('25일에 자동 납부가 되지 않았거나');
    expect(answer(faq, '연장')).toContain('26일에 자동으로 연장되고 등급 점수가 8점');
    expect(answer(faq, '연체되면')).toContain('다음 달 3일에 연체로 처리');
    expect(answer(faq, '연체되면')).toContain('연체료는 1,500원이에요.');
  });
});
