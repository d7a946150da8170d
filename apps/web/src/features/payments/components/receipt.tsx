import { BILL_RULES } from '@ohgood/contract/bill-rules';
import { addMonths, kstMonth } from '@ohgood/contract/kst';
import type { FinalResult, ValidateResult } from '@ohgood/contract/payments';
import { CircleCheck } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { points, won } from '../../../shared/format';
import buttons from '../../../shared/ui/button.module.css';
import { usePaymentHistory } from '../api/payments-api';
import { DetailList } from './detail-list';
import styles from './receipt.module.css';

interface ReceiptProps {
  request: ValidateResult;
  result: FinalResult;
  onDone: () => void;
}

/** '2026-12-15' → '12월 15일' */
function dueLabel(paidAt: string): string {
  const month = addMonths(kstMonth(paidAt), 1);
  return `${Number(month.slice(5, 7))}월 ${BILL_RULES.dueDay}일`;
}

/**
 * The payment-complete screen: what was paid where, points used and earned, the limit left and
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
      <DetailList
        compact
        className={styles.lines}
        rows={[
          {
            label: '가맹점',
            value: row?.merchant ?? (history.isPending ? '불러오는 중...' : '-'),
            testId: 'receipt-merchant',
          },
          { label: '상품', value: request.requestName },
          { label: '결제 금액', value: won(result.price) },
          {
            label: '포인트 사용',
            value: result.pointUsed > 0 ? `-${points(result.pointUsed)}` : points(0),
            testId: 'receipt-point-used',
          },
          { label: '청구 금액', value: won(charged) },
          { label: '적립 포인트', value: `+${points(result.pointEarned)}`, testId: 'receipt-point-earned' },
          { label: '남은 한도', value: won(result.balance), testId: 'receipt-balance' },
          {
            label: '납부 예정일',
            value: dueLabel(row?.date ?? new Date().toISOString()),
            testId: 'receipt-due',
          },
        ]}
      />
      <button type="button" className={`${buttons.primary} ${buttons.block}`} onClick={onDone}>
        확인
      </button>
    </section>
  );
}
