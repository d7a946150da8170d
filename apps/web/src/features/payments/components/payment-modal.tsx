import { PAY_MSG } from '@ohgood/contract/messages';
import type { FinalResult, ValidateResult } from '@ohgood/contract/payments';
import { useRef, useState } from 'react';
import { ApiError } from '../../../shared/api-client';
import { points as formatPoints, won } from '../../../shared/format';
import buttons from '../../../shared/ui/button.module.css';
import { Modal } from '../../../shared/ui/modal';
import { useFinalPayment } from '../api/payments-api';
import { DetailList } from './detail-list';
import { limitGapText } from './limit-gap';
import { NumberPad } from './number-pad';
import { deletePointDigit, finalAmount, limitShort, maxUsablePoints, typePointDigit } from './payment-math';
import styles from './payment-modal.module.css';

interface PaymentModalProps {
  request: ValidateResult | null;
  onClose: () => void;
  onPaid: (result: FinalResult) => void;
}

export function PaymentModal({ request, onClose, onPaid }: PaymentModalProps) {
  const [usePoints, setUsePoints] = useState(0);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // One key per opened request: a double tap or a retry after a timeout cannot pay twice.
  const idempotencyKey = useRef(crypto.randomUUID());
  const { mutateAsync: finalPayment } = useFinalPayment();

  const close = () => {
    setUsePoints(0);
    setError(null);
    idempotencyKey.current = crypto.randomUUID();
    onClose();
  };

  if (!request) return null;
  const price = request.price;
  const maxPoints = maxUsablePoints(price, request.point);
  const amount = finalAmount(price, usePoints);
  const short = limitShort(request.balance, price, usePoints);

  const pay = async () => {
    if (!request.requestId) {
      setError(PAY_MSG.noRequest);
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      const result = await finalPayment({
        requestId: request.requestId,
        point: usePoints,
        idempotencyKey: idempotencyKey.current,
      });
      setUsePoints(0);
      onPaid(result);
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.status > 0 ? failure.message || PAY_MSG.modalFailed : PAY_MSG.modalError,
      );
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal open title="결제하기" onClose={close}>
      <DetailList
        compact
        className={styles.summary}
        rows={[
          { label: '결제 요청', value: request.requestName, testId: 'request-name' },
          { label: '결제 금액', value: won(price) },
          { label: '사용 가능 포인트', value: formatPoints(request.point) },
          { label: '남은 한도', value: won(request.balance) },
        ]}
      />
      <div className={styles.pointRow}>
        <label htmlFor="use-points">사용할 포인트</label>
        <output id="use-points" className={styles.pointValue} aria-live="polite">
          {formatPoints(usePoints)}
        </output>
        <button
          type="button"
          className={buttons.secondary}
          onClick={() => setUsePoints(maxPoints)}
          disabled={maxPoints === 0}
        >
          전액사용
        </button>
      </div>
      {maxPoints === 0 ? <p className={styles.noPoints}>사용할 수 있는 포인트가 없어요.</p> : null}
      <NumberPad
        label="사용할 포인트 입력"
        onDigit={(digit) => setUsePoints((current) => typePointDigit(current, digit, price, request.point))}
        onDelete={() => setUsePoints(deletePointDigit)}
        onClear={() => setUsePoints(0)}
        disabled={submitting || maxPoints === 0}
      />
      <p className={styles.total}>
        최종 결제 금액 <strong data-testid="final-amount">{won(amount)}</strong>
      </p>
      {short && (
        // The button says '한도가 부족합니다.'; this line says by how much, so nothing is said twice.
        <p className={styles.warn} role="alert" data-testid="limit-gap">
          {limitGapText(request.balance, price, usePoints, request.point)}
        </p>
      )}
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
      <button
        type="button"
        className={`${buttons.primary} ${buttons.block}`}
        onClick={pay}
        disabled={short || submitting}
      >
        {submitting ? PAY_MSG.paying : short ? PAY_MSG.limitExceeded : `${won(amount)} 결제하기`}
      </button>
    </Modal>
  );
}
