import type { SettlementSummary } from '@ohgood/contract/settlements';
import { useState } from 'react';
import { won } from '../../../shared/format';
import { notify } from '../../../shared/notify';
import { downloadSettlementCsv, useSettlement, useSettlements } from '../api/settlement-queries';
import styles from '../components/portal.module.css';
import { ReadState } from '../components/portal-ui';

export const SETTLEMENT_STATUS_LABEL: Record<SettlementSummary['status'], string> = {
  PENDING: '지급 예정',
  PAID: '지급 완료',
  NO_PAYOUT: '지급 없음',
};

const LINE_LABEL = { SALE: '결제', REFUND: '환불' } as const;

/** A refund takes its amount back and gives its fee back: shown as minus, as the totals count it. */
const signed = (kind: keyof typeof LINE_LABEL, amount: number) => won(kind === 'REFUND' ? -amount : amount);

/** The shop's settlements, newest day first; one opens with its lines and its CSV for the accountant. */
export function Settlements() {
  const read = useSettlements();
  const [open, setOpen] = useState<SettlementSummary | null>(null);
  const items = read.data?.items ?? [];
  return (
    <section aria-labelledby="settlements-title">
      <h2 id="settlements-title">정산</h2>
      <div className={styles.card}>
        <p className={styles.muted}>
          하루 결제가 다음 영업일에 수수료를 뺀 금액으로 지급돼요. 환불이 더 많은 날은 다음 정산에서 차감돼요.
        </p>
        <ReadState read={read} isEmpty={items.length === 0} empty="아직 정산 내역이 없어요.">
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">정산일</th>
                <th scope="col" className={styles.amount}>
                  결제
                </th>
                <th scope="col" className={styles.amount}>
                  환불
                </th>
                <th scope="col" className={styles.amount}>
                  수수료
                </th>
                <th scope="col" className={styles.amount}>
                  지급액
                </th>
                <th scope="col">상태</th>
                <th scope="col">
                  <span className="visually-hidden">동작</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((s) => (
                <tr key={s.settlementId}>
                  <td data-label="정산일">{s.date}</td>
                  <td data-label="결제" className={styles.amount}>
                    {won(s.sales)}
                  </td>
                  <td data-label="환불" className={styles.amount}>
                    {won(s.refunds)}
                  </td>
                  <td data-label="수수료" className={styles.amount}>
                    {won(s.fees)}
                  </td>
                  <td data-label="지급액" className={styles.amount}>
                    {won(s.payout)}
                  </td>
                  <td>
                    <span className={`${styles.badge} ${s.status === 'PAID' ? styles.paid : ''}`}>
                      {SETTLEMENT_STATUS_LABEL[s.status]}
                    </span>
                    {s.status === 'PENDING' && <span className={styles.muted}> {s.dueDate} 지급</span>}
                  </td>
                  <td>
                    <button
                      type="button"
                      className={styles.secondary}
                      onClick={() => setOpen(s)}
                      aria-label={`${s.date} 정산 상세`}
                      aria-expanded={open?.settlementId === s.settlementId}
                    >
                      상세
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ReadState>
      </div>
      {open && <SettlementDetail summary={open} onClose={() => setOpen(null)} />}
    </section>
  );
}

/** One settlement: its totals, each sale and refund, and the CSV download. */
function SettlementDetail({ summary, onClose }: { summary: SettlementSummary; onClose: () => void }) {
  const read = useSettlement(summary.settlementId);
  const [downloading, setDownloading] = useState(false);
  const lines = read.data?.lines ?? [];
  async function download() {
    setDownloading(true);
    try {
      await downloadSettlementCsv(summary.settlementId, summary.date);
      notify('정산 CSV를 내려받았어요.');
    } catch {
      notify('정산 CSV를 내려받지 못했어요. 잠시 후 다시 시도해주세요.');
    } finally {
      setDownloading(false);
    }
  }
  return (
    <section className={styles.card} aria-labelledby="settlement-detail-title">
      <div className={`${styles.row} ${styles.spread}`}>
        <h3 id="settlement-detail-title">{summary.date} 정산</h3>
        <div className={styles.row}>
          <button type="button" className={styles.primary} onClick={() => void download()} disabled={downloading}>
            CSV 내려받기
          </button>
          <button type="button" className={styles.secondary} onClick={onClose}>
            닫기
          </button>
        </div>
      </div>
      <dl className={styles.totals}>
        <dt>결제 합계</dt>
        <dd>{won(summary.sales)}</dd>
        <dt>환불 합계</dt>
        <dd>{won(summary.refunds)}</dd>
        <dt>수수료 ({(summary.feeBps / 100).toFixed(2)}%)</dt>
        <dd>{won(summary.fees)}</dd>
        <dt>이월 차감</dt>
        <dd>{won(summary.carriedIn)}</dd>
        <dt>정산 금액</dt>
        <dd>{won(summary.net)}</dd>
        <dt>지급액</dt>
        <dd>{won(summary.payout)}</dd>
      </dl>
      <ReadState read={read} isEmpty={lines.length === 0} empty="이 정산에는 결제나 환불이 없어요.">
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">구분</th>
              <th scope="col">주문번호</th>
              <th scope="col">상품</th>
              <th scope="col" className={styles.amount}>
                금액
              </th>
              <th scope="col" className={styles.amount}>
                수수료
              </th>
              <th scope="col">일시</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line) => (
              <tr key={`${line.kind}-${line.paymentId}`}>
                <td data-label="구분">{LINE_LABEL[line.kind]}</td>
                <td data-label="주문번호" className={styles.mono}>
                  {line.orderId}
                </td>
                <td data-label="상품">{line.requestName}</td>
                <td data-label="금액" className={styles.amount}>
                  {signed(line.kind, line.amount)}
                </td>
                <td data-label="수수료" className={styles.amount}>
                  {signed(line.kind, line.fee)}
                </td>
                <td data-label="일시" className={styles.muted}>
                  {line.at.slice(0, 16).replace('T', ' ')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ReadState>
    </section>
  );
}
