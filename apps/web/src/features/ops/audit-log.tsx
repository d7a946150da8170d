import type { AuditRow } from '@ohgood/contract/ops';
import { opsEndpoints as api } from '@ohgood/contract/ops';
import { useState } from 'react';
import { describeChange } from './audit-change';
import { minute, Status } from './console-ui';
import { callOps } from './ops-client';
import styles from './ops-console.module.css';
import { useOps } from './use-ops';

/** The audit trail's actions in Korean (the server's action names are the filter's values). */
export const AUDIT_ACTIONS: Record<string, string> = {
  'customer.search': '고객 검색',
  'customer.reveal': '개인정보 보기',
  'customer.suspend': '결제 정지',
  'customer.lift': '정지 해제',
  'customer.limit': '한도 변경',
  'customer.reset-lockouts': '잠금 초기화',
  'customer.revoke-sessions': '세션 끊기',
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
};

const TARGETS: Record<string, string> = {
  customer: '고객',
  merchant: '가맹점',
  staff: '운영자',
  short: '쇼츠',
  comment: '댓글',
  case: '신고',
  search: '검색',
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

interface Filter {
  staffId?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  from?: string;
  to?: string;
}

/** The filters: an operator (their number; a name in the table sets it), an action, a target, KST dates. */
const FILTER_FIELDS: Array<{ key: keyof Filter; label: string; options?: Record<string, string>; type?: string }> = [
  { key: 'staffId', label: '운영자 번호' },
  { key: 'action', label: '조치', options: AUDIT_ACTIONS },
  { key: 'targetType', label: '대상', options: TARGETS },
  { key: 'targetId', label: '대상 번호' },
  { key: 'from', label: '시작일', type: 'date' },
  { key: 'to', label: '종료일', type: 'date' },
];

/** The global audit log with filters: operator, action, target and a KST date range. */
export function AuditLog() {
  const [draft, setDraft] = useState<Filter>({});
  const [filter, setFilter] = useState<Filter>({});
  const log = useOps(() => callOps(api.audit, { query: { ...filter } }), JSON.stringify(filter));
  const set = (key: keyof Filter) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: e.target.value.trim() || undefined }));
  return (
    <section className={styles.card} aria-labelledby="audit-title">
      <h2 id="audit-title">감사 기록</h2>
      <form
        className={styles.filters}
        aria-label="감사 기록 필터"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter(draft);
        }}
      >
        {FILTER_FIELDS.map((f) => (
          // biome-ignore lint/a11y/noLabelWithoutControl: the control is the select or the input below
          <label key={f.key} className={styles.field}>
            {f.label}
            {f.options ? (
              <select className={styles.input} value={draft[f.key] ?? ''} onChange={set(f.key)}>
                <option value="">전체</option>
                {Object.entries(f.options).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            ) : (
              <input
                className={styles.input}
                type={f.type ?? 'text'}
                value={draft[f.key] ?? ''}
                onChange={set(f.key)}
              />
            )}
          </label>
        ))}
        <button className={styles.button} type="submit">
          적용
        </button>
      </form>
      <Status {...log} />
      {log.data && (
        <AuditTable
          items={log.data.items}
          onActor={(staffId) => {
            const next = { ...draft, staffId: String(staffId) };
            setDraft(next);
            setFilter(next);
          }}
        />
      )}
    </section>
  );
}
