import { MISMATCH_LABELS, type ReconciliationDay } from '@ohgood/contract/reconciliation';
import { useState } from 'react';
import { won } from '../../../shared/format';
import { useReconciliationDay, useReconciliations } from '../api/queries';
import { minute, Status } from '../components/console-ui';
import styles from '../components/ops-console.module.css';

/** What each movement kind is called on screen; a kind added later shows as its code until named here. */
const MOVEMENT_LABELS: Record<string, string> = {
  autopay_debit: '자동 납부 출금',
  surplus_refund: '초과 출금 환급',
  verification_deposit: '1원 인증 입금',
  settlement_payout: '가맹점 정산 지급',
  repayment: '상환',
  unknown: '알 수 없는 거래',
};

const side = ({ count, sum }: { count: number; sum: number }) => `${count}건 ${won(sum)}`;
const amount = (value: number | null) => (value === null ? '-' : won(value));

/**
 * The daily reconciliation (RISK, ADMIN; docs/rules/bills-and-grades.md#B20): the recent days with both sides'
 * counts and sums and how many mismatches, and one day's mismatches with their kind and reference.
 */
export function Reconciliation() {
  const list = useReconciliations();
  const [selected, setSelected] = useState<string | null>(null);
  const items = list.data?.items;
  return (
    <>
      <section className={styles.card} aria-labelledby="reconciliation-title">
        <h2 id="reconciliation-title">일일 대사</h2>
        <p className={styles.muted}>
          매일 01:30에 전날 은행 거래(출금·입금)와 장부(자동 납부, 환급, 상환)를 하나씩 맞춰 봐요.
        </p>
        <Status read={list} />
        {items?.length === 0 && <p>아직 대사한 날이 없어요.</p>}
        {items && items.length > 0 && (
          <table className={styles.table}>
            <thead>
              <tr>
                <th>날짜</th>
                <th>은행 출금</th>
                <th>장부 출금</th>
                <th>은행 입금</th>
                <th>장부 입금</th>
                <th>불일치</th>
                <th>상세</th>
              </tr>
            </thead>
            <tbody>
              {items.map((d) => (
                <DayRow key={d.day} day={d} selected={selected === d.day} onOpen={() => setSelected(d.day)} />
              ))}
            </tbody>
          </table>
        )}
      </section>
      {selected && <DayDetail key={selected} day={selected} />}
    </>
  );
}

function DayRow({ day, selected, onOpen }: { day: ReconciliationDay; selected: boolean; onOpen: () => void }) {
  return (
    <tr className={selected ? styles.selectedRow : undefined}>
      <td>{day.day}</td>
      <td>{side(day.bank.debits)}</td>
      <td>{side(day.books.debits)}</td>
      <td>{side(day.bank.credits)}</td>
      <td>{side(day.books.credits)}</td>
      <td>{day.mismatchCount > 0 ? <span className={styles.tagDanger}>{day.mismatchCount}건</span> : '없음'}</td>
      <td>
        <button
          type="button"
          className={styles.linkButton}
          aria-label={`${day.day} 대사 상세`}
          aria-pressed={selected}
          onClick={onOpen}
        >
          상세
        </button>
      </td>
    </tr>
  );
}

function DayDetail({ day }: { day: string }) {
  const detail = useReconciliationDay(day);
  const d = detail.data;
  return (
    <section className={styles.card} aria-labelledby="reconciliation-day-title">
      <h2 id="reconciliation-day-title">{day} 대사</h2>
      <Status read={detail} />
      {d && <p className={styles.muted}>대사 시각 {minute(d.reconciledAt)}</p>}
      {d?.mismatches.length === 0 && <p>불일치가 없어요. 은행 거래와 장부가 모두 맞아요.</p>}
      {d && d.mismatches.length > 0 && (
        <table className={styles.table}>
          <thead>
            <tr>
              <th>불일치</th>
              <th>거래 종류</th>
              <th>참조</th>
              <th>은행 금액</th>
              <th>장부 금액</th>
            </tr>
          </thead>
          <tbody>
            {d.mismatches.map((m) => (
              <tr key={`${m.kind}:${m.direction}:${m.reference}`}>
                <td>{MISMATCH_LABELS[m.kind]}</td>
                <td>{MOVEMENT_LABELS[m.movement] ?? m.movement}</td>
                <td>
                  <code>{m.reference}</code>
                </td>
                <td>{amount(m.bankAmount)}</td>
                <td>{amount(m.bookAmount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
