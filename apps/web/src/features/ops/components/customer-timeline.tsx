import { DEBIT_RESULT_LABELS } from '@ohgood/contract/ops-collections';
import type { TimelineItem, TimelineKind } from '@ohgood/contract/ops-desk';
import { won } from '../../../shared/format';
import { useTimeline } from '../api/queries';
import { AUDIT_ACTIONS } from './audit-table';
import { MoreButton, minute, PAYMENT_STATUS, Status } from './console-ui';
import { NOTE_CHANNELS_KO, NOTE_OUTCOMES_KO } from './contact-note-form';
import styles from './ops-console.module.css';

/**
 * A customer's timeline (docs/rules/operations.md#O17): payments, refunds, statements, repayments, autopay
 * attempts with the bank's answer, notices, staff actions and contact notes, newest first, 40 at a time.
 */

const KIND_LABELS: Record<TimelineKind, string> = {
  payment: '결제',
  refund: '환불',
  statement: '청구서',
  extension: '납부 연장',
  overdue: '연체',
  repayment: '상환',
  autopay: '자동이체',
  notice: '알림',
  staff: '운영 조치',
  note: '상담 메모',
};

const AUTOPAY_STATUS: Record<string, string> = {
  PENDING: '진행 중',
  PAID: '출금 완료',
  FAILED: '실패',
  SKIPPED: '건너뜀',
};

/** The bank's answers in Korean: the one wording the console uses for a debit (the contract's). */
export const bankAnswer = (result: string) => DEBIT_RESULT_LABELS[result] ?? result;

/** One item as a sentence. */
export function describeItem(item: TimelineItem): string {
  const amount = item.amount === null ? '' : ` ${won(item.amount)}`;
  switch (item.kind) {
    case 'payment':
      return `${item.title}${amount} · ${PAYMENT_STATUS[item.status ?? ''] ?? item.status}`;
    case 'refund':
      return `${item.title}${amount}`;
    case 'statement':
      return `${item.title} 청구서 발행`;
    case 'extension':
      return `${item.title} 청구서 ${item.status === 'AUTO' ? '자동 연장' : '연장'}`;
    case 'overdue':
      return `${item.title} 청구서 연체`;
    case 'repayment':
      return `상환${amount}`;
    case 'autopay':
      return `${item.title} 청구서${amount} · ${AUTOPAY_STATUS[item.status ?? ''] ?? item.status}${
        item.detail ? ` (은행 응답: ${bankAnswer(item.detail)})` : ''
      }`;
    case 'notice':
      return item.title;
    case 'staff':
      return `${item.staffName}: ${AUDIT_ACTIONS[item.status ?? ''] ?? item.status}${item.title ? ` — ${item.title}` : ''}`;
    case 'note':
      return `${item.staffName} · ${NOTE_CHANNELS_KO[item.detail ?? ''] ?? item.detail} · ${
        NOTE_OUTCOMES_KO[item.status ?? ''] ?? item.status
      }${item.promiseDate ? ` · 납부 약속 ${item.promiseDate}` : ''} — ${item.title}`;
  }
}

export function CustomerTimeline({ customerId }: { customerId: number }) {
  const read = useTimeline(customerId);
  const items = read.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section aria-labelledby="timeline-title">
      <h3 id="timeline-title">타임라인</h3>
      {!read.isFetchingNextPage && <Status read={read} />}
      {read.data && items.length === 0 && <p className={styles.muted}>아직 기록이 없어요.</p>}
      {items.length > 0 && (
        <ol className={styles.timeline}>
          {items.map((item) => (
            <li key={item.id}>
              <time dateTime={item.at}>{minute(item.at)}</time>{' '}
              <span className={item.kind === 'overdue' || item.status === 'FAILED' ? styles.tagDanger : styles.tag}>
                {KIND_LABELS[item.kind]}
              </span>{' '}
              {describeItem(item)}
            </li>
          ))}
        </ol>
      )}
      <MoreButton read={read} />
    </section>
  );
}
