import type { StaffAlert } from '@ohgood/contract/ops';
import { won } from '../../../shared/format';
import { useOpsHome } from '../api/queries';
import { minute, Status } from '../components/console-ui';
import styles from '../components/ops-console.module.css';

/**
 * Today's figures (KST day): payments, refunds, overdue customers, autopay failures, open reports, the latest
 * reconciled day's mismatches; and the staff alerts still open (ADR 0200).
 */
export function Home() {
  const home = useOpsHome();
  const d = home.data;
  return (
    <section className={styles.card} aria-labelledby="home-title">
      <h2 id="home-title">오늘의 현황{d ? ` (${d.date})` : ''}</h2>
      <Status read={home} />
      {d && (
        <dl className={styles.grid}>
          <Figure label={`결제 ${d.payments.count}건`} value={won(d.payments.amount)} />
          <Figure label={`환불 ${d.refunds.count}건`} value={won(d.refunds.amount)} />
          <Figure label="연체 고객" value={`${d.overdueCustomers}명`} />
          <Figure label="자동납부 실패" value={`${d.autopayFailures}건`} />
          <Figure label="검토 대기 신고" value={`${d.openReports}건`} />
          <Figure
            label={d.reconciliation ? `대사 불일치 (${d.reconciliation.day})` : '대사 불일치'}
            value={d.reconciliation ? `${d.reconciliation.mismatches}건` : '대사 전'}
          />
        </dl>
      )}
      {d && <Alerts alerts={d.alerts} />}
    </section>
  );
}

function Alerts({ alerts }: { alerts: StaffAlert[] }) {
  return (
    <section aria-labelledby="alerts-title">
      <h3 id="alerts-title">확인할 알림</h3>
      {alerts.length === 0 ? (
        <p className={styles.muted}>확인할 알림이 없어요.</p>
      ) : (
        <ul>
          {alerts.map((alert) => (
            <li key={alert.id}>
              <span className={styles.tagDanger}>{minute(alert.raisedAt)}</span> {alert.message}
            </li>
          ))}
        </ul>
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
