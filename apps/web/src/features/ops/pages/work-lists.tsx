import type { StaffRole } from '@ohgood/contract/endpoint';
import { GRADES } from '@ohgood/contract/grades';
import type { OpsCustomerRow } from '@ohgood/contract/ops';
import {
  type CustomerFilter,
  opsDeskEndpoints as desk,
  FAILED_DEBIT_SORTS,
  OVERDUE_SORTS,
  PENDING_SORTS,
  type WorkListName,
} from '@ohgood/contract/ops-desk';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { won } from '../../../shared/format';
import { type ListOrder, useFailedDebitsList, useOverdueList, usePendingList } from '../api/queries';
import { MoreButton, minute, Status } from '../components/console-ui';
import { CustomerFilterBar } from '../components/customer-filter-bar';
import { bankAnswer } from '../components/customer-timeline';
import styles from '../components/ops-console.module.css';
import { canCall } from '../console-access';
import { CustomerDetail } from './customer-detail';

/** The work lists behind the home's counts (docs/rules/operations.md#O16). */
export type WorkList = WorkListName;

/** Each work list's name on screen (the collections page's bulk actions name them the same). */
export const WORK_LIST_LABELS: Record<WorkListName, string> = {
  overdue: '연체 고객',
  'failed-debits': '오늘 실패한 자동이체',
  'autopay-pending': '자동이체 인증 대기',
};

const LISTS = [
  { id: 'overdue', label: WORK_LIST_LABELS.overdue, opens: desk.overdueList },
  { id: 'failed-debits', label: WORK_LIST_LABELS['failed-debits'], opens: desk.failedDebitsList },
  { id: 'autopay-pending', label: WORK_LIST_LABELS['autopay-pending'], opens: desk.pendingVerificationList },
] as const;

const SORT_LABELS: Record<string, string> = {
  amount: '금액',
  days: '연체일',
  customer: '고객 번호',
  recent: '최근 시도',
};

/** The lists the role may open, the one asked for first (from a home count) when it may. */
export function WorkLists({ staffRole, initial }: { staffRole: StaffRole; initial?: WorkList }) {
  const lists = LISTS.filter((l) => canCall(l.opens, staffRole));
  const [list, setList] = useState<WorkList>(
    lists.some((l) => l.id === initial) ? (initial as WorkList) : (lists[0]?.id ?? 'autopay-pending'),
  );
  const [filter, setFilter] = useState<CustomerFilter>({});
  const [selected, setSelected] = useState<number | null>(null);
  const open = (customerId: number) => setSelected(customerId);
  return (
    <>
      <section className={styles.card} aria-labelledby="lists-title">
        <h2 id="lists-title">업무 목록</h2>
        <fieldset className={styles.tabs} aria-label="목록 고르기">
          {lists.map((l) => (
            <button
              key={l.id}
              type="button"
              className={list === l.id ? styles.button : styles.secondary}
              aria-pressed={list === l.id}
              onClick={() => {
                setList(l.id);
                setSelected(null);
              }}
            >
              {l.label}
            </button>
          ))}
        </fieldset>
        <CustomerFilterBar value={filter} onChange={setFilter} />
        {list === 'overdue' && <OverdueTable filter={filter} onOpen={open} selected={selected} />}
        {list === 'failed-debits' && <FailedDebitsTable filter={filter} onOpen={open} selected={selected} />}
        {list === 'autopay-pending' && <PendingTable filter={filter} onOpen={open} selected={selected} />}
      </section>
      {selected !== null && <CustomerDetail key={selected} customerId={selected} staffRole={staffRole} />}
    </>
  );
}

interface TableProps {
  filter: CustomerFilter;
  onOpen: (customerId: number) => void;
  selected: number | null;
}

/** A sort choice and its direction. */
function useOrder<S extends string>(sorts: readonly S[]) {
  const [order, setOrder] = useState<ListOrder<S>>({ sort: sorts[0] as S, dir: 'desc' });
  const control = (
    <div className={styles.row}>
      <label className={styles.field}>
        정렬
        <select
          className={styles.input}
          value={order.sort}
          onChange={(e) => setOrder({ ...order, sort: e.target.value as S })}
        >
          {sorts.map((s) => (
            <option key={s} value={s}>
              {SORT_LABELS[s] ?? s}
            </option>
          ))}
        </select>
      </label>
      <label className={styles.field}>
        순서
        <select
          className={styles.input}
          value={order.dir}
          onChange={(e) => setOrder({ ...order, dir: e.target.value as 'asc' | 'desc' })}
        >
          <option value="desc">큰 것부터</option>
          <option value="asc">작은 것부터</option>
        </select>
      </label>
    </div>
  );
  return { order, control };
}

/** What a paged list read gives a table: its rows so far, and the next page on demand. */
interface PagedRead<R> {
  data?: { pages: Array<{ items: R[] }> };
  isFetching: boolean;
  isFetchingNextPage: boolean;
  error: unknown;
  refetch: () => unknown;
  hasNextPage: boolean;
  fetchNextPage: () => unknown;
}

/** The customer's cells every list starts with, masked as the server sent them. */
const customerCells = (c: OpsCustomerRow) => [
  `#${c.customerId}`,
  c.name,
  GRADES.find((g) => g.name === c.gradeName)?.label ?? c.gradeName,
  c.suspended ? '결제 정지' : '정상',
];

function ListTable<R extends OpsCustomerRow>({
  read,
  control,
  empty,
  headers,
  cells,
  onOpen,
  selected,
}: {
  read: PagedRead<R>;
  control: ReactNode;
  empty: string;
  headers: string[];
  cells: (row: R) => ReactNode[];
  onOpen: (customerId: number) => void;
  selected: number | null;
}) {
  const rows = read.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <>
      {control}
      {!read.isFetchingNextPage && <Status read={read} />}
      {read.data && rows.length === 0 && <p className={styles.muted}>{empty}</p>}
      {rows.length > 0 && (
        <table className={styles.table}>
          <thead>
            <tr>
              {['번호', '이름', '등급', '상태', ...headers].map((h) => (
                <th key={h}>{h}</th>
              ))}
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.customerId} className={selected === row.customerId ? styles.selectedRow : undefined}>
                {[...customerCells(row), ...cells(row)].map((cell, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells are fixed columns
                  <td key={i}>{cell}</td>
                ))}
                <td>
                  <button
                    type="button"
                    className={styles.linkButton}
                    aria-label={`고객 #${row.customerId} 열기`}
                    onClick={() => onOpen(row.customerId)}
                  >
                    열기
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <MoreButton read={read} />
    </>
  );
}

function OverdueTable({ filter, ...rest }: TableProps) {
  const { order, control } = useOrder(OVERDUE_SORTS);
  const read = useOverdueList(filter, order);
  return (
    <ListTable
      read={read}
      control={control}
      empty="연체 중인 고객이 없어요."
      headers={['연체 금액', '연체일', '가장 오래된 청구서', '납부 약속일']}
      cells={(row) => [won(row.amount), `${row.daysOverdue}일`, row.oldestMonth, row.promiseDate ?? '-']}
      {...rest}
    />
  );
}

function FailedDebitsTable({ filter, ...rest }: TableProps) {
  const { order, control } = useOrder(FAILED_DEBIT_SORTS);
  const read = useFailedDebitsList(filter, order);
  return (
    <ListTable
      read={read}
      control={control}
      empty="오늘 실패한 자동이체가 없어요."
      headers={['청구서', '금액', '은행 응답', '시도', '시각']}
      cells={(row) => [
        row.month,
        row.amount === null ? '-' : won(row.amount),
        row.result ? bankAnswer(row.result) : '-',
        `${row.tries}회`,
        minute(row.at),
      ]}
      {...rest}
    />
  );
}

function PendingTable({ filter, ...rest }: TableProps) {
  const { order, control } = useOrder(PENDING_SORTS);
  const read = usePendingList(filter, order);
  return (
    <ListTable
      read={read}
      control={control}
      empty="인증을 기다리는 고객이 없어요."
      headers={['기다리는 것', '가입일']}
      cells={(row) => [row.reason === 'consent' ? '출금 동의' : '1원 인증', row.joinedAt.slice(0, 10)]}
      {...rest}
    />
  );
}
