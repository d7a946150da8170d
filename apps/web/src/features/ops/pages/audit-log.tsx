import { useState } from 'react';
import type { AuditFilter } from '../api/keys';
import { useAuditLog } from '../api/queries';
import { AUDIT_ACTIONS, AuditTable, TARGETS } from '../components/audit-table';
import { Status } from '../components/console-ui';
import styles from '../components/ops-console.module.css';

/** The filters: an operator (their number; a name in the table sets it), an action, a target, KST dates. */
const FILTER_FIELDS: Array<{ key: keyof AuditFilter; label: string; options?: Record<string, string>; type?: string }> =
  [
    { key: 'staffId', label: '운영자 번호' },
    { key: 'action', label: '조치', options: AUDIT_ACTIONS },
    { key: 'targetType', label: '대상', options: TARGETS },
    { key: 'targetId', label: '대상 번호' },
    { key: 'from', label: '시작일', type: 'date' },
    { key: 'to', label: '종료일', type: 'date' },
  ];

/** The global audit log with filters: operator, action, target and a KST date range. */
export function AuditLog() {
  const [draft, setDraft] = useState<AuditFilter>({});
  const [filter, setFilter] = useState<AuditFilter>({});
  const log = useAuditLog(filter);
  const set = (key: keyof AuditFilter) => (e: { target: { value: string } }) =>
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
      <Status read={log} />
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
