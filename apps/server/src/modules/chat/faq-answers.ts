import type { SuspensionReason } from '@ohgood/contract/bill-rules';
import type { FaqItem } from '@ohgood/contract/chat-rules';
import { manWon, RULE_NUMBERS, type RuleNumbers, rulePhrases } from '@ohgood/contract/faq-phrases';
import { won } from '@ohgood/contract/number-format';
import { withParticle } from '@ohgood/contract/particles';

/*
 * Our own FAQ answers (docs/rules/chat.md#C5), written from the constants the rules themselves use: change a grade
 * limit, a penalty or the roulette prizes and the answer changes with it.
 */

export function faqAnswers(rules: RuleNumbers): Readonly<Record<FaqItem, string>> {
  const { bill, gradePoints, score, points } = rules;
  const { limitRange, rateRange, prizeRange, scoreRange, debitTime } = rulePhrases(rules);
  const gradeLines = rules.grades
    .map((g) => `• ${g.label} ${g.min}~${g.max}점: 한도 ${manWon(g.monthlyLimit)}, 적립 ${g.pointPercent}%`)
    .join('\n');
  return {
    '오굿 스코어 기준': [
      '등급은 등급 점수로 정해져.',
      gradeLines,
      `납부일까지 ${withParticle(won(gradePoints.krwPerPoint), '을/를')} 낼 때마다 1점이 오르고, 자동 연장되면 ${gradePoints.autoExtensionPenalty}점, 연체되면 ${gradePoints.overduePenalty}점이 깎여.`,
      `오굿 스코어는 ${scoreRange}의 결제 신용 점수야. 연장·연체 이력, 등급 점수, 한도 사용률, 최근 ${score.months}개월 이용 실적으로 계산하고, ${score.topBand.min}점 이상이면 ${score.topBand.band} 밴드야. 자세한 이유는 리포트에서 볼 수 있어!`,
    ].join('\n'),
    '연체 패널티': [
      `납부일(다음 달 ${bill.dueDay}일, 연장했다면 그 달 말일)까지 못 내면 다음 달 ${bill.overdueDay}일에 연체로 바뀌어.`,
      `연체되면 등급 점수가 ${gradePoints.overduePenalty}점 깎이고 새 결제가 정지돼.`,
      bill.lateFeeKrw === 0
        ? '대신 이자나 연체료는 없어. 연체 금액을 납부하면 정지도 바로 풀려.'
        : `연체료는 ${won(bill.lateFeeKrw)}이야. 연체 금액을 납부하면 정지도 바로 풀려.`,
    ].join('\n'),
    'BNPL 이란?': [
      'BNPL은 Buy Now Pay Later, 지금 사고 나중에 내는 후불결제야.',
      `이번 달에 쓴 금액을 모아서 다음 달 ${bill.dueDay}일에 한 번에 납부해. 납부일 ${debitTime}에 연결 계좌에서 자동으로 출금되고, ${rules.autopay.reminderDays}일 전과 당일에 알려 줄게.`,
      `한도는 등급에 따라 ${limitRange}이고, 결제할 때마다 포인트도 ${rateRange} 쌓여.`,
    ].join('\n'),
    '기간 연장': [
      `지난 달 청구서는 한 번, 다음 달 ${bill.dueDay}일에서 그 달 말일까지 연장할 수 있어. 납부하기 화면에서 신청하면 돼.`,
      '이미 연장했거나 연체된 청구서는 연장할 수 없어.',
      `${bill.dueDay}일 자동 납부가 안 됐거나(잔액 부족 등) 자동 납부를 끄고 안 내면 ${bill.autoExtensionDay}일에 자동으로 연장되는데, 이때는 등급 점수가 ${gradePoints.autoExtensionPenalty}점 깎여.`,
      '자동 납부는 출금이 될 때까지 연체 전까지 매일 다시 시도해. 직접 연장했다면 연장한 납부일에 출금해.',
    ].join('\n'),
    '바로 납부하는 법': [
      '납부하기 화면에서 낼 결제 건을 고르고 즉시 납부를 누르면 연결 계좌에서 바로 납부돼.',
      '지난 달 청구분이 남아 있으면 그것부터 함께 골라야 해.',
      `이번 달 결제를 미리 내면 한도가 바로 돌아오고, 납부일 안에 ${won(gradePoints.krwPerPoint)}마다 등급 점수 1점도 받아.`,
    ].join('\n'),
    포인트: [
      '포인트는 1P = 1원으로 결제할 때 쓸 수 있어. 모으는 방법은 세 가지야.',
      `• 결제 적립: 포인트를 뺀 결제 금액의 ${rateRange} (등급별)`,
      `• 출석 체크 룰렛: 하루 한 번 ${prizeRange}`,
      `• 쇼츠 시청: 1분에 ${points.watchPerMinute}P, 하루 최대 ${points.dailyWatchLimit}P`,
    ].join('\n'),
    '계정 정지 해제법': [
      '연체된 청구서가 있으면 새 결제가 정지돼. 그래도 로그인해서 청구서를 보고 납부할 수는 있어.',
      '납부하기 화면에서 연체된 금액을 모두 납부하면 따로 신청하지 않아도 바로 자동으로 풀려.',
      `다만 연체 때 깎인 등급 점수 ${gradePoints.overduePenalty}점은 제때 납부하면서 다시 쌓아야 해.`,
    ].join('\n'),
  };
}

export const FAQ_ANSWERS = faqAnswers(RULE_NUMBERS);

/**
 * '계정 정지 해제법' for a customer who is suspended now, by the reason on record (the same reason /payment and
 * /mypage show): an operator's suspension says nothing of a bill and is not lifted by paying.
 */
export const SUSPENSION_ANSWERS: Readonly<Record<SuspensionReason, string>> = {
  STAFF: [
    '지금은 운영 정책에 따라 새 결제가 잠시 정지돼 있어. 연체 때문이 아니라서 납부로는 풀리지 않아.',
    '자세한 내용과 해제는 고객센터로 문의해 줘. 그동안에도 로그인해서 청구서를 보고 납부할 수는 있어.',
  ].join('\n'),
  OVERDUE: [
    '지금 납부 기한이 지난(연체된) 청구서가 있어서 새 결제가 정지돼 있어.',
    FAQ_ANSWERS['계정 정지 해제법'],
  ].join('\n'),
};
