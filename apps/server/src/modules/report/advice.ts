import type { StatementSummary } from '@ohgood/contract/bills';
import { daysBetween } from '@ohgood/contract/kst';
import { withParticle } from '@ohgood/contract/particles';
import type { Advice, AdviceRef, CategorySpend } from '@ohgood/contract/report';
import { ADVICE_LEVELS, ADVICE_RULES, type AdviceLevel } from '@ohgood/contract/report-rules';
import { josa } from 'es-hangul';

/** Everything the advice rules look at (report.md#D4), gathered by the service from the customer's records. */
export interface AdviceInputs {
  name: string;
  /** KST 'YYYY-MM-DD'. */
  today: string;
  /** Whether the customer ever made a (non-refunded) purchase. */
  hasPurchases: boolean;
  /** Billed spend of this month so far and of last month (KRW). */
  spendThisMonth: number;
  spendLastMonth: number;
  /** This month's categories, amount descending. */
  categoriesThisMonth: CategorySpend[];
  monthlyLimit: number;
  pointBalance: number;
  suspended: boolean;
  overdueAmount: number;
  /** Statements with unpaid lines (as GET /api/payment/statements reports them). */
  statements: StatementSummary[];
}

const fmt = new Intl.NumberFormat('ko-KR');
const won = (n: number) => `${fmt.format(n)}원`;
const monthName = (month: string) => `${Number(month.slice(5, 7))}월`;
const dayName = (date: string) => `${Number(date.slice(5, 7))}월 ${Number(date.slice(8, 10))}일`;
const dDay = (days: number) => (days === 0 ? 'D-DAY' : `D-${days}`);
const percent = (part: number, whole: number) => Math.round((part / whole) * 100);

const REF = {
  payment: { label: '납부하기', path: '/payment' },
  history: { label: '결제 내역 보기', path: '/payment/details' },
  pay: { label: '결제하러 가기', path: '/qrpin' },
  points: { label: '포인트 내역', path: '/point/history' },
} satisfies Record<string, AdviceRef>;

type Rule = (input: AdviceInputs) => Advice[];

/** Overdue statements suspend payments until repaid (bills-and-grades.md#B10). */
const overdue: Rule = (input) => {
  const months = input.statements.filter((s) => s.status === 'OVERDUE').map((s) => monthName(s.month));
  if (!input.suspended && months.length === 0) return [];
  return [
    {
      id: 'overdue',
      title: '연체된 청구서가 있어요',
      body: `${months.join(', ') || '지난'} 청구서 ${withParticle(won(input.overdueAmount), '이/가')} 연체되어 결제가 정지됐어요. 연체 금액을 납부하면 바로 다시 결제할 수 있어요.`,
      level: 'HIGH',
      tags: ['연체', '납부'],
      refs: [REF.payment],
    },
  ];
};

/** A statement due within a few days, with its amount and D-day. */
const dueSoon: Rule = (input) =>
  input.statements
    .filter((s) => s.status === 'DUE' || s.status === 'EXTENDED')
    .map((s) => ({ s, days: daysBetween(input.today, s.dueDate) }))
    .filter(({ days }) => days >= 0 && days <= ADVICE_RULES.dueSoonDays)
    .map(({ s, days }) => ({
      id: `due-soon-${s.month}`,
      title: `납부일이 ${days === 0 ? '오늘이에요' : `${days}일 남았어요`} (${dDay(days)})`,
      body: `${monthName(s.month)} 청구서 ${won(s.amount)}의 납부 기한은 ${dayName(s.dueDate)}(${dDay(days)})이에요. 기한 안에 납부하면 등급 점수가 오르고 오굿 점수도 지킬 수 있어요.`,
      level: 'HIGH',
      tags: ['납부', '기한'],
      refs: [REF.payment],
    }));

/** An extended statement: an automatic extension costs the most score. */
const extension: Rule = (input) =>
  input.statements
    .filter((s) => s.extension !== null && s.status !== 'OVERDUE')
    .map((s) => {
      const auto = s.extension === 'AUTO';
      return {
        id: `extension-${s.month}`,
        title: auto ? '청구서가 자동 연장됐어요' : '연장한 청구서가 있어요',
        body: `${monthName(s.month)} 청구서 ${withParticle(won(s.amount), '이/가')} ${auto ? '자동 연장' : '연장'}되어 ${dayName(s.dueDate)}까지 납부해야 해요. ${
          auto
            ? '자동 연장은 등급 점수 5점이 깎이고 오굿 점수에도 가장 크게 반영돼요.'
            : '연장 기한을 넘기면 연체로 결제가 정지돼요.'
        }`,
        level: auto ? 'HIGH' : 'MEDIUM',
        tags: ['연장', '납부'],
        refs: [REF.payment],
      };
    });

const limitUse: Rule = (input) => {
  const used = percent(input.spendThisMonth, input.monthlyLimit);
  if (input.spendThisMonth * 100 <= input.monthlyLimit * ADVICE_RULES.limitUsePercent) return [];
  return [
    {
      id: 'limit-use',
      title: `이번 달 한도를 ${used}% 썼어요`,
      body: `이번 달 ${withParticle(won(input.spendThisMonth), '을/를')} 써서 한도 ${won(input.monthlyLimit)}의 ${used}%를 사용했어요. 남은 한도는 ${won(
        Math.max(0, input.monthlyLimit - input.spendThisMonth),
      )}이에요. 미리 납부하면 한도가 바로 다시 생겨요.`,
      level: 'MEDIUM',
      tags: ['한도', '소비'],
      refs: [REF.payment],
    },
  ];
};

const spendingRise: Rule = (input) => {
  const { spendThisMonth: now, spendLastMonth: before } = input;
  if (before <= 0 || now * 100 <= before * (100 + ADVICE_RULES.spendingRisePercent)) return [];
  const rise = percent(now - before, before);
  return [
    {
      id: 'spending-rise',
      title: `지난달보다 ${rise}% 더 썼어요`,
      body: `이번 달 소비가 ${won(now)}으로 지난달 ${won(before)}보다 ${won(now - before)}(${rise}%) 늘었어요. 결제 내역에서 줄일 수 있는 지출을 찾아보세요.`,
      level: 'MEDIUM',
      tags: ['소비', '비교'],
      refs: [REF.history],
    },
  ];
};

const categoryShare: Rule = (input) => {
  const top = input.categoriesThisMonth[0];
  if (!top || top.percentage <= ADVICE_RULES.categorySharePercent) return [];
  return [
    {
      id: 'category-share',
      title: `소비의 ${top.percentage}%가 ${josa(top.name, '이에요/예요')}`,
      body: `이번 달 소비 ${won(input.spendThisMonth)} 가운데 ${top.name}에 ${withParticle(`${won(top.amount)}(${top.percentage}%)`, '을/를')} 썼어요. 한 분야에 40% 넘게 몰리면 예산을 따로 정해두는 게 좋아요.`,
      level: 'LOW',
      tags: ['소비', top.name],
      refs: [REF.history],
    },
  ];
};

const pointsWorthUsing: Rule = (input) =>
  input.pointBalance < ADVICE_RULES.pointsWorthUsing
    ? []
    : [
        {
          id: 'points',
          title: `${fmt.format(input.pointBalance)}P를 쓸 수 있어요`,
          body: `보유 포인트 ${fmt.format(input.pointBalance)}P는 결제할 때 ${won(input.pointBalance)}처럼 쓸 수 있어요. 결제 화면에서 '전액 사용'을 눌러보세요.`,
          level: 'LOW',
          tags: ['포인트'],
          refs: [REF.pay, REF.points],
        },
      ];

/** The rules that warn about something; the positive note appears only when none of them fired. */
const WARNING_RULES: Rule[] = [overdue, dueSoon, extension, limitUse, spendingRise, categoryShare];

function welcome(input: AdviceInputs): Advice {
  return {
    id: 'welcome',
    title: `${input.name}님, 환영해요!`,
    body: `매장에서 QR이나 PIN으로 결제하고 다음 달 15일에 한 번에 납부하세요. 지금 한도는 ${won(input.monthlyLimit)}이고, 첫 결제부터 소비 분석과 맞춤 조언이 시작돼요.`,
    level: 'LOW',
    tags: ['시작하기'],
    refs: [REF.pay],
  };
}

function allGood(input: AdviceInputs): Advice {
  return {
    id: 'all-good',
    title: '지금은 걱정할 게 없어요',
    body: `${input.name}님, 이번 달 ${won(input.spendThisMonth)}으로 한도의 ${percent(
      input.spendThisMonth,
      input.monthlyLimit,
    )}%만 쓰고 있고, 곧 다가오는 납부일이나 연장·연체도 없어요. 지금처럼만 관리해주세요!`,
    level: 'LOW',
    tags: ['칭찬'],
    refs: [REF.history],
  };
}

const LEVEL_ORDER = new Map<AdviceLevel, number>(ADVICE_LEVELS.map((level, index) => [level, index]));

/**
 * The deterministic advice engine (report.md#D4): every rule over the customer's own numbers, HIGH first
 * (rule order within a level). A customer with no purchases gets a welcome; one with nothing to warn about
 * gets the positive note.
 */
export function buildAdvice(input: AdviceInputs): Advice[] {
  const warnings = WARNING_RULES.flatMap((rule) => rule(input));
  const closing = !input.hasPurchases ? [welcome(input)] : warnings.length === 0 ? [allGood(input)] : [];
  const advices = [...warnings, ...pointsWorthUsing(input), ...closing];
  return advices
    .map((advice, index) => ({ advice, index }))
    .sort(
      (a, b) => (LEVEL_ORDER.get(a.advice.level) ?? 0) - (LEVEL_ORDER.get(b.advice.level) ?? 0) || a.index - b.index,
    )
    .map(({ advice }) => advice);
}
