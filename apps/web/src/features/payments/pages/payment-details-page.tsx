import { kstMonth, kstTime } from '@ohgood/contract/kst';
import { PAY_MSG } from '@ohgood/contract/messages';
import type { PaymentHistoryItem } from '@ohgood/contract/payments';
import { getChoseong } from 'es-hangul';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { points, won } from '../../../shared/format';
import { groupByDay } from '../../../shared/group-by-day';
import { Modal } from '../../../shared/ui/modal';
import { MonthNav } from '../../../shared/ui/month-nav';
import { ErrorText, LoadingText, Page } from '../../../shared/ui/page';
import { usePaymentHistory } from '../api/payments-api';
import { DetailList } from '../components/detail-list';
import styles from '../components/history-list.module.css';

const STATUS_LABEL: Record<PaymentHistoryItem['status'], string> = {
  UNPAID: '납부 예정',
  PAID: '납부 완료',
  REFUNDED: '결제 취소',
};

/** Matches a name by text or by Korean initial consonants ('ㅅㅌㅂㅅ' finds 스타벅스). */
export function matchesName(name: string, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  if (name.toLowerCase().includes(q)) return true;
  return getChoseong(name.replace(/\s/g, '')).includes(q.replace(/\s/g, ''));
}

/** The search box promises '가맹점·상품명': a payment is found by its merchant or by what was bought. */
export function matchesPayment(item: Pick<PaymentHistoryItem, 'merchant' | 'requestName'>, query: string): boolean {
  return matchesName(item.requestName, query) || matchesName(item.merchant, query);
}

export default function PaymentDetailsPage() {
  const currentMonth = kstMonth(new Date());
  // A notice's receipt link: /payment/details?paymentId=…&month=YYYY-MM opens that payment's details.
  const [params] = useSearchParams();
  const linkedMonth = params.get('month');
  const linkedId = Number(params.get('paymentId')) || null;
  const [month, setMonth] = useState(
    linkedMonth && /^\d{4}-\d{2}$/.test(linkedMonth) && linkedMonth <= currentMonth ? linkedMonth : currentMonth,
  );
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<PaymentHistoryItem | null>(null);
  const history = usePaymentHistory(month);
  useEffect(() => {
    const linked = linkedId === null ? undefined : history.data?.find((item) => item.paymentId === linkedId);
    if (linked) setSelected(linked);
  }, [linkedId, history.data]);
  // The payment just made (from the receipt's '확인') is marked and scrolled into view.
  const highlight = (useLocation().state as { highlight?: number } | null)?.highlight ?? null;
  useEffect(() => {
    if (highlight === null || !history.data) return;
    document.querySelector('[data-highlighted="true"]')?.scrollIntoView({ block: 'center' });
  }, [highlight, history.data]);
  // The month's charged total (after points, refunds left out) is the figure Home's card shows,
  // and each row's right-hand amount is its share of it, so the list adds up to the card.
  const charged = (history.data ?? []).reduce((sum, item) => (item.status === 'REFUNDED' ? sum : sum + item.price), 0);

  const groups = useMemo(
    () =>
      groupByDay(
        (history.data ?? []).filter((item) => matchesPayment(item, query)),
        (item) => item.date,
      ),
    [history.data, query],
  );

  return (
    <Page title="결제 내역">
      <MonthNav month={month} max={currentMonth} onChange={setMonth} />
      {history.data && history.data.length > 0 ? (
        <p className={styles.total} data-testid="month-charged">
          <span>{Number(month.slice(5, 7))}월 청구 금액 (포인트 사용 후)</span>
          <strong>{won(charged)}</strong>
        </p>
      ) : null}
      <label htmlFor="payment-search" className="visually-hidden">
        결제 내역 검색
      </label>
      <input
        id="payment-search"
        type="search"
        className={styles.search}
        placeholder="가맹점·상품명 검색 (초성 가능)"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      {history.isPending ? (
        <LoadingText />
      ) : history.isError ? (
        <ErrorText error={history.error} onRetry={() => void history.refetch()} />
      ) : groups.length === 0 ? (
        <p className={styles.empty}>{PAY_MSG.noPayments}</p>
      ) : (
        <ul className={styles.groups}>
          {groups.map((group) => (
            <li key={group.day}>
              <h2 className={styles.day}>{group.label}</h2>
              <ul className={styles.items}>
                {group.items.map((item) => (
                  <li
                    key={item.paymentId}
                    className={`${styles.item} ${item.status === 'REFUNDED' ? styles.refunded : ''} ${
                      item.paymentId === highlight ? styles.highlighted : ''
                    }`}
                    data-highlighted={item.paymentId === highlight ? 'true' : undefined}
                    data-testid="payment-row"
                  >
                    <button type="button" className={styles.row} onClick={() => setSelected(item)}>
                      <span>
                        <p className={styles.name}>
                          {item.requestName}
                          <span className={styles.badge}>{STATUS_LABEL[item.status]}</span>
                        </p>
                        <p className={styles.sub}>
                          {item.merchant} · {kstTime(item.date)}
                          {item.point > 0 ? ` · 결제 ${won(item.totalPrice)} · ${points(item.point)} 사용` : ''}
                        </p>
                      </span>
                      <span className={styles.amount} data-testid="row-charged">
                        {won(item.price)}
                        {item.point > 0 ? <small className={styles.amountNote}>청구</small> : null}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
      <Modal open={selected !== null} title="결제 상세" onClose={() => setSelected(null)} variant="center">
        {selected && (
          <DetailList
            rows={[
              { label: '상품명', value: selected.requestName },
              { label: '가맹점', value: selected.merchant },
              { label: '결제 일시', value: selected.date.slice(0, 16).replace('T', ' ') },
              { label: '결제 금액', value: won(selected.totalPrice) },
              { label: '포인트 사용', value: points(selected.point) },
              { label: '청구 금액', value: won(selected.price) },
              { label: '적립 포인트', value: points(selected.pointEarned) },
              { label: '상태', value: STATUS_LABEL[selected.status] },
            ]}
          />
        )}
      </Modal>
    </Page>
  );
}
