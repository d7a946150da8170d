import { addMonths, kstMonth } from '@ohgood/contract/kst';
import type { FinalResult, ValidateResult } from '@ohgood/contract/payments';
import { CircleCheck } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { points, won } from '../../../shared/format';
import buttons from '../../../shared/ui/button.module.css';
import { usePaymentHistory } from '../api/payments-api';
import styles from './receipt.module.css';

interface ReceiptProps {
  request: ValidateResult;
  result: FinalResult;
  onDone: () => void;
}

/** '2026-12-15' → '12월 15일' */
function dueLabel(paidAt: string): string {
  const month = addMonths(kstMonth(paidAt), 1);
  return `${Number(month.slice(5, 7))}월 15일`;
}

/**
 * The payment-complete screen (issue #14): what was paid where, points used and earned, the limit left and
 * when the bill is due. The merchant and date come from this month's history, which the details page reuses.
 */
export function Receipt({ request, result, onDone }: ReceiptProps) {
  const month = kstMonth(new Date());
  const history = usePaymentHistory(month);
  const row = history.data?.find((item) => item.paymentId === result.paymentId);
  const heading = useRef<HTMLHeadingElement>(null);
  // Screen readers and keyboards start at the result, not at the top of a page that has changed under them.
  useEffect(() => heading.current?.focus(), []);
  const charged = result.price - result.pointUsed;

  return (
    <section className={styles.receipt} aria-labelledby="receipt-title" data-testid="receipt">
      <CircleCheck size={56} className={styles.icon} aria-hidden />
      <h2 id="receipt-title" ref={heading} tabIndex={-1} className={styles.title}>
        결제가 완료되었어요
      </h2>
      <p className={styles.amount} data-testid="receipt-charged">
        {won(charged)}
      </p>
      <dl className={styles.lines}>
        <div>
          <dt>가맹점</dt>
          <dd data-testid="receipt-merchant">{row?.merchant ?? (history.isPending ? '불러오는 중...' : '-')}</dd>
        </div>
        <div>
          <dt>상품</dt>
          <dd>{request.requestName}</dd>
        </div>
        <div>
          <dt>결제 금액</dt>
          <dd>{won(result.price)}</dd>
        </div>
        <div>
          <dt>포인트 사용</dt>
          <dd data-testid="receipt-point-used">{result.pointUsed > 0 ? `-${points(result.pointUsed)}` : points(0)}</dd>
        </div>
        <div>
          <dt>청구 금액</dt>
          <dd>{won(charged)}</dd>
        </div>
        <div>
          <dt>적립 포인트</dt>
          <dd data-testid="receipt-point-earned">+{points(result.pointEarned)}</dd>
        </div>
        <div>
          <dt>남은 한도</dt>
          <dd data-testid="receipt-balance">{won(result.balance)}</dd>
        </div>
        <div>
          <dt>납부 예정일</dt>
          <dd data-testid="receipt-due">{dueLabel(row?.date ?? new Date().toISOString())}</dd>
        </div>
      </dl>
      <button type="button" className={`${buttons.primary} ${buttons.block}`} onClick={onDone}>
        확인
      </button>
    </section>
  );
}
