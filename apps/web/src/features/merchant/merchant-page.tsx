import type { PaymentRequestStatus, PaymentRequestView } from '@ohgood/contract/payments';
import { CircleCheckBig } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { won } from '../../shared/format';
import buttons from '../../shared/ui/button.module.css';
import { Mascot } from '../../shared/ui/mascot';
import { followStatus, useCancelPaymentRequest, useCreatePaymentRequest } from './api/merchant-api';
import styles from './merchant-page.module.css';

const KEY_STORAGE = 'merchantKey';

/** The local deadline of a request: its lifetime counted from now, so a wrong device clock cannot skew it. */
function localDeadline(request: PaymentRequestView): number {
  return Date.now() + (new Date(request.expiresAt).getTime() - new Date(request.createdAt).getTime());
}

function remainingSeconds(deadline: number): number {
  return Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
}

const STATUS_TEXT: Record<PaymentRequestStatus, string> = {
  ACTIVE: '결제 대기 중',
  PAID: '결제 완료',
  EXPIRED: '시간이 만료되었습니다',
  CANCELLED: '결제 요청이 취소되었습니다',
  REFUNDED: '환불되었습니다',
};

/** A merchant's checkout screen: create a request, show QR + PIN with a countdown, flip live when paid. */
export default function MerchantPage() {
  const [key, setKey] = useState(() => localStorage.getItem(KEY_STORAGE) ?? 'demo-merchant-key');
  const { mutateAsync: createPaymentRequest } = useCreatePaymentRequest();
  const { mutateAsync: cancelPaymentRequest } = useCancelPaymentRequest();
  const [name, setName] = useState('아메리카노');
  const [price, setPrice] = useState('4500');
  const [request, setRequest] = useState<PaymentRequestView | null>(null);
  const [deadline, setDeadline] = useState(0);
  const [status, setStatus] = useState<PaymentRequestStatus>('ACTIVE');
  const [seconds, setSeconds] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!request) return;
    const controller = new AbortController();
    followStatus(key, request.requestId, setStatus, controller.signal).catch(() => undefined);
    const timer = setInterval(() => setSeconds(remainingSeconds(deadline)), 250);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [request, key, deadline]);

  useEffect(() => {
    if (request && status === 'ACTIVE' && seconds === 0 && remainingSeconds(deadline) === 0) setStatus('EXPIRED');
  }, [seconds, status, request, deadline]);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const totalPrice = Number(price);
    if (!name.trim() || !Number.isInteger(totalPrice) || totalPrice < 1 || totalPrice > 10_000_000) {
      setError('상품명과 1원 이상 1,000만 원 이하의 금액을 입력해주세요.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      localStorage.setItem(KEY_STORAGE, key);
      const created = await createPaymentRequest({
        key,
        body: { orderId: `POS-${Date.now()}`, requestName: name.trim(), totalPrice },
      });
      const until = localDeadline(created);
      setStatus(created.status);
      setDeadline(until);
      setSeconds(remainingSeconds(until));
      setRequest(created);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : '결제 요청을 만들지 못했습니다.');
    } finally {
      setBusy(false);
    }
  };

  const cancel = async () => {
    if (!request) return;
    try {
      const cancelled = await cancelPaymentRequest({ key, requestId: request.requestId });
      setStatus(cancelled.status);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : '취소하지 못했습니다.');
    }
  };

  return (
    <main className={styles.pos}>
      <header className={styles.header}>
        <Mascot size={32} />
        <h1>오굿페이 가맹점 결제</h1>
      </header>

      {!request || status !== 'ACTIVE' ? (
        <>
          {request && (
            <section className={`${styles.result} ${status === 'PAID' ? styles.paid : ''}`} aria-live="assertive">
              {status === 'PAID' && <CircleCheckBig size={56} aria-hidden />}
              <p className={styles.resultText} data-testid="merchant-status">
                {STATUS_TEXT[status]}
              </p>
              <p>
                {request.requestName} · {won(request.totalPrice)}
              </p>
            </section>
          )}
          <form className={styles.form} onSubmit={create}>
            <label>
              가맹점 API 키
              <input value={key} onChange={(e) => setKey(e.target.value)} autoComplete="off" />
            </label>
            <label>
              상품명
              <input value={name} onChange={(e) => setName(e.target.value)} maxLength={50} />
            </label>
            <label>
              금액(원)
              <input value={price} onChange={(e) => setPrice(e.target.value.replace(/\D/g, ''))} inputMode="numeric" />
            </label>
            {error && (
              <p className={styles.error} role="alert">
                {error}
              </p>
            )}
            <button type="submit" className={`${buttons.primary} ${buttons.block}`} disabled={busy}>
              {busy ? '요청 중...' : '결제 요청 만들기'}
            </button>
          </form>
        </>
      ) : (
        <section className={styles.checkout} aria-live="polite">
          <p className={styles.item}>
            {request.requestName} <strong>{won(request.totalPrice)}</strong>
          </p>
          <img
            className={styles.qr}
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(request.qrImage)}`}
            alt="결제 QR 코드"
          />
          <p className={styles.pinLabel}>또는 앱에서 코드 입력</p>
          <p className={styles.pin} data-testid="merchant-pin">
            {request.pinCode.slice(0, 3)} {request.pinCode.slice(3)}
          </p>
          <p className={styles.countdown} data-testid="merchant-countdown">
            {Math.floor(seconds / 60)}:{String(seconds % 60).padStart(2, '0')} 남음
          </p>
          <p className={styles.waiting} data-testid="merchant-status">
            {STATUS_TEXT[status]}
          </p>
          <button type="button" className={`${buttons.ghost} ${buttons.block}`} onClick={cancel}>
            요청 취소
          </button>
        </section>
      )}
    </main>
  );
}
