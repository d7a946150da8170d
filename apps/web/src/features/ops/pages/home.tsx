import type { Endpoint, StaffRole } from '@ohgood/contract/endpoint';
import { opsEndpoints as api, type StaffAlert } from '@ohgood/contract/ops';
import { opsDeskEndpoints as desk } from '@ohgood/contract/ops-desk';
import { won } from '../../../shared/format';
import { useOpsHome } from '../api/queries';
import { minute, Status } from '../components/console-ui';
import styles from '../components/ops-console.module.css';
import { canCall, type Section } from '../console-access';
import type { WorkList } from './work-lists';

/**
 * Today's figures (KST day): payments, refunds, overdue customers, autopay failures, open reports, the latest
 * reconciled day's mismatches; and the staff alerts still open (ADR 0200). A count with work behind it opens
 * its list when the role may read it (docs/rules/operations.md#O16).
 */
export function Home({
  staffRole,
  onOpen,
}: {
  staffRole: StaffRole;
  onOpen: (section: Section, list?: WorkList) => void;
}) {
  const home = useOpsHome();
  const d = home.data;
  /** Opens `section` (and `list`) if the role may call the endpoint behind it. */
  const link = (opens: Endpoint, section: Section, list?: WorkList) =>
    canCall(opens, staffRole) ? () => onOpen(section, list) : undefined;
  return (
    <section className={styles.card} aria-labelledby="home-title">
      <h2 id="home-title">오늘의 현황{d ? ` (${d.date})` : ''}</h2>
      <Status read={home} />
      {d && (
        <dl className={styles.grid}>
          <Figure label={`결제 ${d.payments.count}건`} value={won(d.payments.amount)} />
          <Figure label={`환불 ${d.refunds.count}건`} value={won(d.refunds.amount)} />
          <Figure
            label="연체 고객"
            value={`${d.overdueCustomers}명`}
            open={link(desk.overdueList, 'lists', 'overdue')}
          />
          <Figure
            label="자동납부 실패"
            value={`${d.autopayFailures}건`}
            open={link(desk.failedDebitsList, 'lists', 'failed-debits')}
          />
          <Figure label="검토 대기 신고" value={`${d.openReports}건`} open={link(api.moderation, 'moderation')} />
          <Figure
            label={d.reconciliation ? `대사 불일치 (${d.reconciliation.day})` : '대사 불일치'}
            value={d.reconciliation ? `${d.reconciliation.mismatches}건` : '대사 전'}
            open={link(api.reconciliations, 'reconciliation')}
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

/** A figure; with `open`, its value is a button to the list behind it. */
function Figure({ label, value, open }: { label: string; value: string; open?: () => void }) {
  return (
    <div className={styles.figureBox}>
      <dt>{label}</dt>
      <dd className={styles.figure}>
        {open ? (
          <button type="button" className={styles.figureLink} onClick={open} aria-label={`${label} ${value} 목록 보기`}>
            {value}
          </button>
        ) : (
          value
        )}
      </dd>
    </div>
  );
}
