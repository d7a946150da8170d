import type { PortalPayment } from '@ohgood/contract/merchant-portal';
import { PAYMENT_REQUEST_STATUSES, type PaymentRequestStatus } from '@ohgood/contract/payments';
import { type FormEvent, useState } from 'react';
import { won } from '../../../shared/format';
import { notify } from '../../../shared/notify';
import { Modal } from '../../../shared/ui/modal';
import { type PaymentFilter, usePayments, useRefund } from '../api/queries';
import styles from '../components/portal.module.css';
import { FormError, failure, kstMinute, ReadState } from '../components/portal-ui';

export const STATUS_LABEL: Record<PaymentRequestStatus, string> = {
  ACTIVE: '결제 대기',
  PAID: '결제 완료',
  EXPIRED: '만료',
  CANCELLED: '취소',
  REFUNDED: '환불',
};

const badgeClass = (status: PaymentRequestStatus) =>
  `${styles.badge} ${status === 'PAID' ? styles.paid : status === 'REFUNDED' ? styles.refunded : ''}`;

/** Payments newest first: filter by KST day, status and order id, page on with 더 보기, refund a paid one. */
export function Payments() {
  const [filter, setFilter] = useState<PaymentFilter>({});
  const [refunding, setRefunding] = useState<PortalPayment | null>(null);
  const read = usePayments(filter);
  const items = read.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <section aria-labelledby="payments-title">
      <h2 id="payments-title">결제 내역</h2>
      <Filters onApply={setFilter} />
      <div className={styles.card}>
        <ReadState
          read={read}
          isEmpty={items.length === 0}
          empty={Object.keys(filter).length > 0 ? '조건에 맞는 결제가 없어요.' : '아직 결제가 없어요.'}
        >
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">주문번호</th>
                <th scope="col">상품</th>
                <th scope="col" className={styles.amount}>
                  금액
                </th>
                <th scope="col">상태</th>
                <th scope="col">요청 시각</th>
                <th scope="col">
                  <span className="visually-hidden">동작</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((payment) => (
                <tr key={payment.requestId}>
                  <td data-label="주문번호" className={styles.mono}>
                    {payment.orderId}
                  </td>
                  <td data-label="상품">{payment.requestName}</td>
                  <td data-label="금액" className={styles.amount}>
                    {won(payment.totalPrice)}
                  </td>
                  <td>
                    <span className={badgeClass(payment.status)}>{STATUS_LABEL[payment.status]}</span>
                  </td>
                  <td data-label="요청" className={styles.muted}>
                    {kstMinute(payment.createdAt)}
                  </td>
                  <td>
                    {payment.status === 'PAID' && (
                      <button
                        type="button"
                        className={styles.danger}
                        onClick={() => setRefunding(payment)}
                        aria-label={`${payment.orderId} 환불`}
                      >
                        환불
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {read.hasNextPage && (
            <div className={styles.more}>
              <button
                type="button"
                className={styles.secondary}
                disabled={read.isFetchingNextPage}
                onClick={() => void read.fetchNextPage()}
              >
                {read.isFetchingNextPage ? '불러오는 중...' : '더 보기'}
              </button>
            </div>
          )}
          {read.isFetchNextPageError && (
            <p className={styles.formError} role="alert">
              다음 결제를 불러오지 못했어요. 더 보기를 다시 눌러주세요.
            </p>
          )}
        </ReadState>
      </div>
      {refunding && <RefundDialog payment={refunding} onClose={() => setRefunding(null)} />}
    </section>
  );
}

function Filters({ onApply }: { onApply: (filter: PaymentFilter) => void }) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [status, setStatus] = useState('');
  const [orderId, setOrderId] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = orderId.trim();
    onApply({
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      ...(status ? { status: status as PaymentRequestStatus } : {}),
      ...(trimmed ? { orderId: trimmed } : {}),
    });
  }

  return (
    <form className={`${styles.card} ${styles.filters}`} onSubmit={submit} aria-label="결제 검색">
      <label className={styles.field}>
        시작일
        <input className={styles.input} type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
      </label>
      <label className={styles.field}>
        종료일
        <input className={styles.input} type="date" value={to} onChange={(e) => setTo(e.target.value)} />
      </label>
      <label className={styles.field}>
        상태
        <select className={styles.input} value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="">전체</option>
          {PAYMENT_REQUEST_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABEL[s]}
            </option>
          ))}
        </select>
      </label>
      <label className={styles.field}>
        주문번호
        <input
          className={styles.input}
          type="search"
          value={orderId}
          maxLength={64}
          onChange={(e) => setOrderId(e.target.value)}
          placeholder="주문번호로 검색"
        />
      </label>
      <button type="submit" className={styles.primary}>
        조회
      </button>
    </form>
  );
}

/** Refunds one paid payment with the shop's reason, through the merchant's refund path. */
function RefundDialog({ payment, onClose }: { payment: PortalPayment; onClose: () => void }) {
  const refund = useRefund();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (reason.trim().length < 2) return setError('환불 사유를 2자 이상 적어주세요.');
    try {
      await refund.mutateAsync({ requestId: payment.requestId, reason: reason.trim() });
      notify(`${won(payment.totalPrice)}을 환불했어요.`);
      onClose();
    } catch (e) {
      setError(failure(e));
    }
  }

  return (
    <Modal open title="결제 환불" onClose={onClose} variant="center">
      <form className={styles.form} onSubmit={submit}>
        <p>
          {payment.requestName} · {won(payment.totalPrice)} (주문번호 {payment.orderId})
        </p>
        <label className={styles.field}>
          환불 사유
          <textarea
            className={styles.textarea}
            value={reason}
            maxLength={200}
            onChange={(e) => setReason(e.target.value)}
          />
        </label>
        <FormError error={error} />
        <div className={styles.row}>
          <button type="submit" className={styles.danger} disabled={refund.isPending}>
            {refund.isPending ? '환불하는 중...' : '환불하기'}
          </button>
          <button type="button" className={styles.secondary} onClick={onClose}>
            닫기
          </button>
        </div>
      </form>
    </Modal>
  );
}
