import { DEBIT_FAILURE_TEXT } from '@ohgood/contract/autopay';
import { limitChangedText } from '@ohgood/contract/bill-messages';
import type { CustomerEvent, DomainEventOf } from '@ohgood/contract/domain-events';
import { GRADES } from '@ohgood/contract/grades';
import type { NoticeCategory, NoticeKind } from '@ohgood/contract/notifications';
import { groupedNumber, points, won } from '@ohgood/contract/number-format';
import { withParticle } from '@ohgood/contract/particles';

/** A notice to write for one customer; `dedupeKey` makes it happen once. */
export interface NoticeDraft {
  customerId: number;
  kind: NoticeKind;
  category: NoticeCategory;
  title: string;
  body: string;
  link: string;
  dedupeKey: string;
}

/** '2026-12' → '12월'; '2026-12-15' → '12월 15일'. */
const monthLabel = (month: string) => `${Number(month.slice(5, 7))}월`;
const dayLabel = (date: string) => `${Number(date.slice(5, 7))}월 ${Number(date.slice(8, 10))}일`;
const gradeLabel = (name: string) => GRADES.find((grade) => grade.name === name)?.label ?? name;

const receipt = (paymentId: number, month: string) => `/payment/details?paymentId=${paymentId}&month=${month}`;
const short = (shortId: number) => `/shorts/feeds?shortsId=${shortId}`;

type Draft = Omit<NoticeDraft, 'dedupeKey'> & { dedupeKey?: string };

/**
 * The Korean notices of one domain event (docs/rules/notifications.md#N2), written for the customers it
 * concerns. An event no customer needs to hear about (a point use, an early repayment the customer made
 * themself) gives none. `eventId` keys each notice to its event, so dispatching an event again adds nothing.
 */
export function noticesOf(event: CustomerEvent, eventId: number, facts: CustomerFacts): NoticeDraft[] {
  return draftsOf(event, facts).map((draft, index) => ({
    ...draft,
    dedupeKey: draft.dedupeKey ?? `event:${eventId}:${index}`,
  }));
}

/** What a notice's copy needs to know about its customer beyond the event (read at dispatch). */
export interface CustomerFacts {
  autopay: boolean;
}

/**
 * The events whose copy reads `CustomerFacts` (draftsOf below): the dispatcher looks the facts up for these
 * alone, so a batch of watch claims' points costs no read of their customers.
 */
const READS_CUSTOMER_FACTS: ReadonlySet<CustomerEvent['type']> = new Set(['statement.issued']);

export const readsCustomerFacts = (event: CustomerEvent): boolean => READS_CUSTOMER_FACTS.has(event.type);

function draftsOf(event: CustomerEvent, facts: CustomerFacts): Draft[] {
  const customerId = event.customerId;
  const billing = (kind: NoticeKind, title: string, body: string, link = '/payment'): Draft => ({
    customerId,
    kind,
    category: 'billing',
    title,
    body,
    link,
  });
  switch (event.type) {
    case 'payment.completed':
      return [
        {
          // Keyed by the payment: one notice however many times the event was recorded.
          dedupeKey: `payment:${event.paymentId}`,
          ...billing(
            'payment_completed',
            '결제 완료',
            `${event.requestName} ${won(event.totalPrice)} 결제가 완료됐어요.${event.pointUsed > 0 ? ` (포인트 ${points(event.pointUsed)} 사용)` : ''}`,
            receipt(event.paymentId, event.month),
          ),
        },
      ];
    case 'payment.refunded':
      return [
        billing(
          'refund_credited',
          '결제 취소·환불',
          event.payout > 0
            ? `결제가 취소되어 ${won(event.payout)}을 연결 계좌로 돌려드렸어요.`
            : `결제가 취소되어 ${won(event.price)}이 청구 금액에서 빠졌어요.`,
          '/payment/details',
        ),
      ];
    case 'statement.issued':
      return [
        billing(
          'statement_issued',
          `${monthLabel(event.month)} 청구서`,
          `${monthLabel(event.month)} 이용 금액 ${won(event.amount)}, ${dayLabel(event.dueDate)} ${
            facts.autopay ? '자동 납부 예정이에요.' : '납부일이에요. 납부하기에서 납부해 주세요.'
          }`,
        ),
      ];
    case 'bill.reminder':
      return [
        billing(
          event.daysLeft === 0 ? 'reminder_dday' : 'reminder_d3',
          event.daysLeft === 0 ? '오늘 납부일이에요' : `납부일 D-${event.daysLeft}`,
          `${monthLabel(event.month)} 이용 금액 ${won(event.amount)}${
            event.autopay
              ? event.daysLeft === 0
                ? '을 오늘 연결 계좌에서 자동 납부해요. 잔액을 확인해 주세요.'
                : `을 ${dayLabel(event.dueDate)}에 자동 납부해요. 잔액을 확인해 주세요.`
              : `, ${dayLabel(event.dueDate)}까지 납부해 주세요.`
          }`,
        ),
      ];
    case 'bill.payment_requested':
      return [
        billing(
          event.overdue ? 'overdue' : 'reminder_dday',
          event.overdue ? '연체된 금액을 납부해 주세요' : '납부를 잊지 마세요',
          `${monthLabel(event.month)} 이용 금액 ${won(event.amount)}이 아직 납부되지 않았어요. 납부하기에서 바로 납부할 수 있어요.`,
        ),
      ];
    case 'autopay.succeeded':
      return [
        billing(
          'autopay_succeeded',
          '자동 납부 완료',
          `${monthLabel(event.month)} 이용 금액 ${won(event.amount)}을 연결 계좌에서 납부했어요.`,
        ),
      ];
    case 'autopay.surplus_refunded':
      return [
        billing(
          'autopay_refunded',
          '자동 납부 환불',
          `${monthLabel(event.month)} 자동 납부에서 이미 납부된 금액까지 출금되어 ${won(event.amount)}을 연결 계좌로 돌려드렸어요.`,
        ),
      ];
    case 'autopay.failed':
      return [
        billing(
          'autopay_failed',
          '자동 납부 실패',
          `${monthLabel(event.month)} 이용 금액 ${won(event.amount)}을 출금하지 못했어요. ${DEBIT_FAILURE_TEXT[event.reason]}`,
        ),
      ];
    case 'statement.extended':
      return [
        billing(
          'extension_applied',
          event.by === 'JOB' ? '자동 연장' : '납부 연장',
          event.by === 'JOB'
            ? `${monthLabel(event.month)} 청구서가 ${dayLabel(event.dueDate)}까지 자동 연장됐어요.${
                event.penalty > 0 ? ` 등급 포인트 ${groupedNumber(event.penalty)}점이 차감됐어요.` : ''
              }`
            : `${monthLabel(event.month)} 청구서의 납부일이 ${dayLabel(event.dueDate)}로 연장됐어요.`,
        ),
      ];
    case 'statement.overdue':
      return [
        billing(
          'overdue',
          '연체 안내',
          `${monthLabel(event.month)} 청구서 ${won(event.amount)}이 연체됐어요. ${
            event.penalty > 0 ? `등급 포인트 ${groupedNumber(event.penalty)}점이 차감됐고, ` : ''
          }납부하면 바로 결제를 다시 쓸 수 있어요.`,
        ),
      ];
    case 'account.suspended':
      return [
        event.reason === 'STAFF'
          ? billing(
              'overdue',
              '결제 이용 정지',
              '운영 정책에 따라 새 결제가 잠시 정지됐어요. 고객센터로 문의해 주세요.',
            )
          : billing(
              'overdue',
              '결제 이용 정지',
              '연체된 청구서가 있어 새 결제가 정지됐어요. 납부하기에서 납부해 주세요.',
            ),
      ];
    case 'account.suspension_lifted':
      return [
        event.reason === 'STAFF'
          ? billing(
              'suspension_lifted',
              '이용 정지 해제',
              '운영자 확인을 거쳐 결제 정지가 해제됐어요. 다시 결제할 수 있어요.',
            )
          : billing('suspension_lifted', '이용 정지 해제', '연체 금액을 모두 납부해 다시 결제할 수 있어요.'),
      ];
    case 'grade.changed':
      if (event.from.grade === event.to.grade) return [];
      return [
        billing(
          'grade_changed',
          event.to.gradePoint > event.from.gradePoint ? '등급 상승' : '등급 하락',
          `등급이 ${gradeLabel(event.from.grade)}에서 ${withParticle(gradeLabel(event.to.grade), '으로/로')} 바뀌었어요.`,
          '/mypage',
        ),
      ];
    case 'credit_limit.changed':
      // Risk set the limit it already had: nothing changed for the customer.
      if (event.from === event.to) return [];
      return [billing('limit_changed', '월 한도 조정', limitChangedText(event.from, event.to))];
    case 'points.posted':
      if (event.reason !== 'CHECKIN_ROULETTE') return [];
      return [
        {
          customerId,
          kind: 'roulette_win',
          category: 'benefit',
          title: '출석 룰렛 당첨',
          body: `출석 룰렛에서 ${points(event.amount)}가 당첨됐어요.`,
          link: '/point/history',
        },
      ];
    case 'shorts.watch_cap_reached':
      return [
        {
          customerId,
          kind: 'watch_cap_reached',
          category: 'benefit',
          title: '오늘의 시청 포인트 완료',
          body: `오늘 받을 수 있는 시청 포인트 ${points(event.limit)}를 모두 받았어요. 내일 또 만나요!`,
          link: '/point/history',
        },
      ];
    case 'shorts.upload_finished':
      return [
        event.status === 'READY'
          ? {
              customerId,
              kind: 'upload_ready',
              category: 'community',
              title: '업로드 완료',
              body: `'${event.title}' 영상이 게시됐어요.`,
              link: short(event.shortId),
            }
          : {
              customerId,
              kind: 'upload_failed',
              category: 'community',
              title: '업로드 실패',
              body: `'${event.title}' 영상을 처리하지 못했어요. 다른 파일로 다시 올려 주세요.`,
              link: '/shorts/upload',
            },
      ];
    case 'shorts.content_hidden':
    case 'shorts.content_restored':
      return [moderationNotice(event)];
    case 'shorts.comment_added': {
      const link = `${short(event.shortId)}&commentId=${event.commentId}`;
      const drafts: Draft[] = [];
      if (event.parentAuthorId !== null && event.parentAuthorId !== customerId) {
        drafts.push({
          customerId: event.parentAuthorId,
          kind: 'comment_reply',
          category: 'community',
          title: '내 댓글에 답글',
          body: `${event.nickname}님: ${event.preview}`,
          link,
        });
      }
      if (event.shortOwnerId !== customerId && event.shortOwnerId !== event.parentAuthorId) {
        drafts.push({
          customerId: event.shortOwnerId,
          kind: 'short_comment',
          category: 'community',
          title: '내 쇼츠에 새 댓글',
          body: `${event.nickname}님: ${event.preview}`,
          link,
        });
      }
      return drafts;
    }
    default:
      // Events without a notice (repayments the customer made, point movements other than the roulette, …).
      return [];
  }
}

/**
 * A creator's short or comment was hidden or put back (docs/rules/shorts.md#S11, #S12). A hidden short links
 * to the creator's own channel (the short itself no longer opens); a comment links to its short.
 */
function moderationNotice(event: DomainEventOf<'shorts.content_hidden' | 'shorts.content_restored'>): Draft {
  const isShort = event.target === 'SHORT';
  const item = `'${event.preview}' ${isShort ? '영상' : '댓글'}`;
  const base = { customerId: event.customerId, category: 'community' as const };
  if (event.type === 'shorts.content_restored') {
    return {
      ...base,
      kind: 'content_restored',
      title: '다시 공개되었어요',
      body: `검토 결과 ${item}이 다시 공개되었어요.`,
      link: isShort ? short(event.shortId) : `${short(event.shortId)}&commentId=${event.targetId}`,
    };
  }
  return {
    ...base,
    kind: 'content_hidden',
    title: isShort ? '쇼츠가 숨겨졌어요' : '댓글이 숨겨졌어요',
    body:
      event.by === 'REPORTS'
        ? `신고가 여러 건 접수되어 ${item}을 검토하는 동안 숨겨 두었어요.`
        : `${item}이 운영정책 위반으로 숨겨졌어요.`,
    link: isShort ? '/shorts/profile' : short(event.shortId),
  };
}
