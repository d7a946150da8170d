import type { StaffRole } from '@ohgood/contract/endpoint';
import {
  opsCollectionsEndpoints as api,
  BULK_ACTIONS,
  type CollectionRow,
  DEBIT_RESULT_LABELS,
} from '@ohgood/contract/ops-collections';
import { WORK_LISTS, type WorkListFilter, type WorkListName } from '@ohgood/contract/ops-desk';
import { useState } from 'react';
import { won } from '../../../shared/format';
import { notify } from '../../../shared/notify';
import { collectionsChanges, useCollectionList } from '../api/collections-queries';
import { useConsoleAction } from '../api/queries';
import { callOps } from '../api/staff-api';
import { Choice } from '../components/choice';
import { FormError, failure, Status } from '../components/console-ui';
import { CustomerFilterBar } from '../components/customer-filter-bar';
import styles from '../components/ops-console.module.css';
import { CustomerDetail } from './customer-detail';
import { WORK_LIST_LABELS } from './work-lists';

/** The filter bar's part of a work list's filter (everything but the list). */
function customerFilterOf({ list: _list, ...customer }: WorkListFilter) {
  return customer;
}

const ACTION_LABELS: Record<(typeof BULK_ACTIONS)[number], string> = {
  remind: '납부 안내 보내기',
  suspend: '결제 정지',
  lift: '정지 해제',
};

/**
 * Collections (RISK, ADMIN; docs/rules/operations.md#O18–O21): a work list (overdue, refused today, autopay
 * waiting) under the work lists' own filter, each row opening the customer with their debits; and a bulk
 * action on that very list and filter: a reason, a preview of who is affected, and a confirm that acts on
 * exactly those customers.
 */
export function Collections({ staffRole, initial }: { staffRole: StaffRole; initial?: WorkListName }) {
  const [filter, setFilter] = useState<WorkListFilter>({ list: initial ?? 'overdue' });
  const [selected, setSelected] = useState<number | null>(null);
  const list = useCollectionList(filter);
  return (
    <>
      <section className={styles.card} aria-labelledby="collections-title">
        <h2 id="collections-title">수납 대상</h2>
        <div className={styles.row}>
          <Choice
            label="목록"
            value={filter.list}
            options={WORK_LISTS}
            names={(l) => WORK_LIST_LABELS[l]}
            onChange={(next) => {
              setFilter({ ...filter, list: next });
              setSelected(null);
            }}
          />
        </div>
        <CustomerFilterBar
          value={customerFilterOf(filter)}
          onChange={(next) => {
            setFilter({ ...next, list: filter.list });
            setSelected(null);
          }}
        />
        <Status read={list} />
        {list.data && (
          <p>
            {WORK_LIST_LABELS[filter.list]} {list.data.total}명
          </p>
        )}
        {list.data?.items.length === 0 && <p className={styles.muted}>조건에 맞는 고객이 없습니다.</p>}
        {list.data && list.data.items.length > 0 && (
          <CustomerTable rows={list.data.items} selected={selected} onOpen={setSelected} />
        )}
      </section>
      {list.data && list.data.total > 0 && <BulkAction filter={filter} />}
      {selected !== null && <CustomerDetail key={selected} customerId={selected} staffRole={staffRole} />}
    </>
  );
}

function CustomerTable({
  rows,
  selected,
  onOpen,
}: {
  rows: CollectionRow[];
  selected?: number | null;
  onOpen?: (id: number) => void;
}) {
  return (
    <table className={styles.table}>
      <thead>
        <tr>
          <th>번호</th>
          <th>이름</th>
          <th>등급</th>
          <th>미납</th>
          <th>가장 오래된 청구</th>
          <th>오늘 출금 실패</th>
          <th>상태</th>
          {onOpen && <th />}
        </tr>
      </thead>
      <tbody>
        {rows.map((c) => (
          <tr key={c.customerId} className={selected === c.customerId ? styles.selectedRow : undefined}>
            <td>#{c.customerId}</td>
            <td>{c.name}</td>
            <td>{c.gradeName}</td>
            <td>{won(c.owed)}</td>
            <td>
              {c.oldestMonth ?? '-'} {c.overdue && <span className={styles.tagDanger}>연체</span>}
            </td>
            <td>{c.failedToday ? (DEBIT_RESULT_LABELS[c.failedToday] ?? c.failedToday) : '-'}</td>
            <td>{c.suspended ? '결제 정지' : '정상'}</td>
            {onOpen && (
              <td>
                <button
                  type="button"
                  className={styles.linkButton}
                  aria-label={`고객 #${c.customerId} 열기`}
                  onClick={() => onOpen(c.customerId)}
                >
                  열기
                </button>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type Preview = Awaited<ReturnType<typeof previewCall>>;
const previewCall = (body: Parameters<typeof callOps<typeof api.bulkPreview>>[1]) => callOps(api.bulkPreview, body);

/** The bulk action: choose it and give a reason, see who it affects, then confirm exactly that set. */
function BulkAction({ filter }: { filter: WorkListFilter }) {
  const [action, setAction] = useState<(typeof BULK_ACTIONS)[number]>('remind');
  const [reason, setReason] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirmBulk = useConsoleAction(
    (token: string) => callOps(api.bulkConfirm, { body: { token } }),
    () => collectionsChanges.customers(),
  );
  const [outcome, setOutcome] = useState<string | null>(null);

  async function showPreview() {
    if (reason.trim().length < 2) return setError('사유를 2자 이상 입력해주세요.');
    setBusy(true);
    setError(null);
    setOutcome(null);
    try {
      setPreview(await previewCall({ body: { ...filter, action, reason: reason.trim() } }));
    } catch (e) {
      setError(failure(e));
    } finally {
      setBusy(false);
    }
  }

  async function execute(token: string) {
    setBusy(true);
    setError(null);
    try {
      const done = await confirmBulk(token);
      const text = `${ACTION_LABELS[done.action]}: ${done.done.length}명 처리${
        done.skipped.length > 0 ? `, ${done.skipped.length}명 제외 (조건에서 벗어났거나 이미 처리됨)` : ''
      }`;
      setOutcome(text);
      notify(text);
      setPreview(null);
    } catch (e) {
      setError(failure(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className={styles.card} aria-labelledby="bulk-title">
      <h2 id="bulk-title">일괄 처리</h2>
      <div className={styles.row}>
        <Choice
          label="조치"
          value={action}
          options={BULK_ACTIONS}
          names={(a) => ACTION_LABELS[a]}
          onChange={(next) => {
            setAction(next);
            setPreview(null);
          }}
        />
        <label className={styles.field}>
          사유 (필수, 고객마다 감사 기록에 남아요)
          <input
            className={styles.input}
            value={reason}
            maxLength={500}
            onChange={(e) => {
              setReason(e.target.value);
              setPreview(null);
            }}
          />
        </label>
        <button type="button" className={styles.button} disabled={busy} onClick={() => void showPreview()}>
          미리 보기
        </button>
      </div>
      <FormError error={error} />
      {outcome && <p role="status">{outcome}</p>}
      {preview && (
        <section aria-label="일괄 처리 미리 보기">
          <p className={styles.summary}>
            {ACTION_LABELS[action]} · {WORK_LIST_LABELS[filter.list]} {preview.count}명. 미리 본 고객에게만 실행되고,
            그사이 조건에서 벗어난 고객은 제외돼요.
          </p>
          {preview.count > preview.rows.length && (
            <p className={styles.muted}>처음 {preview.rows.length}명만 보여 줘요.</p>
          )}
          <CustomerTable rows={preview.rows} />
          <div className={styles.row}>
            <button
              type="button"
              className={styles.danger}
              disabled={busy || preview.count === 0}
              onClick={() => void execute(preview.token)}
            >
              {busy ? '처리 중...' : `${preview.count}명에게 실행`}
            </button>
            <button type="button" className={styles.secondary} disabled={busy} onClick={() => setPreview(null)}>
              취소
            </button>
          </div>
        </section>
      )}
    </section>
  );
}
