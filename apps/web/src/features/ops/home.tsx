import { opsEndpoints as api } from '@ohgood/contract/ops';
import { won } from '../../shared/format';
import { Status } from './console-ui';
import { callOps } from './ops-client';
import styles from './ops-console.module.css';
import { useOps } from './use-ops';

/** Today's figures (KST day): payments, refunds, overdue customers, autopay failures, open reports. */
export function Home() {
  const home = useOps(() => callOps(api.home), 'home');
  const d = home.data;
  return (
    <section className={styles.card} aria-labelledby="home-title">
      <h2 id="home-title">오늘의 현황{d ? ` (${d.date})` : ''}</h2>
      <Status {...home} />
      {d && (
        <dl className={styles.grid}>
          <Figure label={`결제 ${d.payments.count}건`} value={won(d.payments.amount)} />
          <Figure label={`환불 ${d.refunds.count}건`} value={won(d.refunds.amount)} />
          <Figure label="연체 고객" value={`${d.overdueCustomers}명`} />
          <Figure label="자동납부 실패" value={`${d.autopayFailures}건`} />
          <Figure label="검토 대기 신고" value={`${d.openReports}건`} />
        </dl>
      )}
    </section>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className={styles.figureBox}>
      <dt>{label}</dt>
      <dd className={styles.figure}>{value}</dd>
    </div>
  );
}
