import { manWon, RULE_NUMBERS, type RuleNumbers, rulePhrases } from '@ohgood/contract/faq-phrases';
import { won } from '@ohgood/contract/number-format';
import { withParticle } from '@ohgood/contract/particles';

export interface FaqEntry {
  q: string;
  a: string;
}

/**
 * My page FAQ: seven questions, answered from the same rule constants the server applies (and the
 * chatbot's FAQ quotes), so an answer changes when its rule does.
 */
export function buildFaq(rules: RuleNumbers): readonly FaqEntry[] {
  const { bill, gradePoints, score, points } = rules;
  const { limitRange, rateRange, prizeRange, scoreRange, debitTime } = rulePhrases(rules);
  const gradeRanges = rules.grades.map((g) => `${g.label} ${g.min}~${g.max}`).join(', ');
  return [
    {
      q: '후불결제(BNPL)가 무엇인가요?',
      a: `지금 결제하고 다음 달 ${bill.dueDay}일에 한 번에 납부하는 서비스예요. 등급에 따라 ${limitRange} 한도 안에서 이용할 수 있어요. 납부일 ${debitTime}에 연결 계좌에서 자동 납부되고(납부하기·마이페이지에서 끌 수 있어요), ${rules.autopay.reminderDays}일 전과 당일에 알림을 보내 드려요.`,
    },
    {
      q: '즉시 납부는 어떻게 하나요?',
      a: '납부하기 화면에서 납부할 결제 건을 골라 즉시 납부를 누르면 연결 계좌에서 바로 납부돼요. 이번 달 결제 건을 먼저 납부하면 그만큼 한도가 바로 돌아와요. 지난 달 청구분이 남아 있으면 그것부터 납부해야 해요.',
    },
    {
      q: '포인트는 어떻게 쌓고 쓰나요?',
      a: `결제할 때 포인트를 뺀 금액의 ${rateRange}(등급별)가 적립되고, 출석체크 룰렛으로 하루 한 번 ${prizeRange}, 쇼츠 시청으로 하루 최대 ${points.dailyWatchLimit}P를 받을 수 있어요. 1P는 1원으로 결제할 때 사용해요.`,
    },
    {
      q: '등급은 어떻게 정해지나요?',
      a: `등급 점수로 정해져요: ${gradeRanges}점. 납부일까지 ${withParticle(manWon(gradePoints.krwPerPoint), '을/를')} 납부할 때마다 1점이 오르고, 자동 연장되면 ${gradePoints.autoExtensionPenalty}점, 연체되면 ${gradePoints.overduePenalty}점이 깎여요.`,
    },
    {
      q: '오굿 점수는 무엇인가요?',
      a: `${scoreRange}으로 나타내는 나의 결제 신용 점수예요. 연장·연체 이력, 등급 점수, 한도 사용률, 최근 ${score.months}개월 이용 실적을 바탕으로 계산되고, 리포트에서 점수에 영향을 준 이유를 볼 수 있어요.`,
    },
    {
      q: '납부일을 연장할 수 있나요?',
      a: `지난 달 청구서는 한 달에 한 번, 다음 달 말일까지 연장 신청할 수 있어요(자동 납부는 연장한 날에 출금해요). ${bill.dueDay}일에 자동 납부가 되지 않았거나 자동 납부를 껐는데 납부하지 않으면 ${bill.autoExtensionDay}일에 자동으로 연장되고 등급 점수가 ${gradePoints.autoExtensionPenalty}점 깎여요. 출금이 안 된 동안에는 연체 전까지 매일 다시 출금을 시도해요.`,
    },
    {
      q: '연체되면 어떻게 되나요?',
      a: `연장된 납부일까지 납부하지 않으면 다음 달 ${bill.overdueDay}일에 연체로 처리되고 등급 점수가 ${gradePoints.overduePenalty}점 깎이며 새 결제가 제한돼요. 연체 금액을 납부하면 바로 해제돼요. ${
        bill.lateFeeKrw === 0 ? '이자나 연체료는 없어요.' : `연체료는 ${won(bill.lateFeeKrw)}이에요.`
      }`,
    },
  ];
}

export const FAQ = buildFaq(RULE_NUMBERS);
