import type { AuditRow } from '@ohgood/contract/ops';
import { describeChange } from '../audit-change';
import { minute } from './console-ui';
import styles from './ops-console.module.css';

/** The audit trail's actions in Korean (the server's action names are the filter's values). */
export const AUDIT_ACTIONS: Record<string, string> = {
  'customer.search': '고객 검색',
  'customer.reveal': '개인정보 보기',
  'customer.suspend': '결제 정지',
  'customer.lift': '정지 해제',
  'customer.limit': '한도 변경',
  'customer.reset-lockouts': '잠금 초기화',
  'customer.revoke-sessions': '세션 끊기',
  'customer.note': '상담 메모',
  'payment.refund': '환불',
  'merchant.create': '가맹점 등록',
  'merchant.disable': '가맹점 중지',
  'merchant.rotate-key': 'API 키 교체',
  'staff.create': '운영자 추가',
  'staff.role': '역할 변경',
  'staff.disable': '운영자 중지',
  'moderation.hide': '숨김',
  'moderation.restore': '복구',
  'moderation.dismiss': '기각',
  'creator.strike': '크리에이터 경고',
  'creator.upload-ban': '업로드 금지',
  'export.download': '파일 내려받기',
  'export.aborted': '내려받기 중단',
  'export.failed': '내려받기 실패',
};

export const TARGETS: Record<string, string> = {
  customer: '고객',
  merchant: '가맹점',
  staff: '운영자',
  short: '쇼츠',
  comment: '댓글',
  case: '신고',
  search: '검색',
  export: '내보내기',
};

/** What a console search was by (its audit row's target): the query itself is never kept. */
const SEARCH_KINDS: Record<string, string> = { email: '이메일', number: '고객 번호·계좌번호', name: '이름 일부' };

/** Audit rows, newest first; `onActor` makes an operator's name a filter. */
export function AuditTable({ items, onActor }: { items: AuditRow[]; onActor?: (staffId: number) => void }) {
  if (items.length === 0) return <p>기록이 없습니다.</p>;
  return (
    <table className={styles.table}>
      <thead>
        <tr>
          <th>시각</th>
          <th>운영자</th>
          <th>조치</th>
          <th>대상</th>
          <th>사유</th>
          <th>변경 (전 → 후)</th>
        </tr>
      </thead>
      <tbody>
        {items.map((row) => (
          <tr key={row.auditId}>
            <td>{minute(row.at)}</td>
            <td>
              {onActor && row.staffId !== null ? (
                <button type="button" className={styles.linkButton} onClick={() => onActor(row.staffId as number)}>
                  {row.staffName}
                </button>
              ) : (
                row.staffName
              )}{' '}
              <span className={styles.tag}>{row.role}</span>
            </td>
            <td>{AUDIT_ACTIONS[row.action] ?? row.action}</td>
            <td>
              {row.targetType === 'search'
                ? `검색 (${SEARCH_KINDS[row.targetId] ?? row.targetId})`
                : `${TARGETS[row.targetType] ?? row.targetType} #${row.targetId}`}
            </td>
            <td>{row.reason}</td>
            <td className={styles.muted}>{describeChange(row.before, row.after, row.action)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
