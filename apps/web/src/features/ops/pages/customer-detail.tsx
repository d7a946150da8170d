import type { StaffRole } from '@ohgood/contract/endpoint';
import type { OpsCustomerPage } from '@ohgood/contract/ops';
import { opsEndpoints as api } from '@ohgood/contract/ops';
import { opsCollectionsEndpoints } from '@ohgood/contract/ops-collections';
import { opsDeskEndpoints as desk } from '@ohgood/contract/ops-desk';
import { withParticle } from '@ohgood/contract/particles';
import { POINT_REASON_LABELS, type PointReason } from '@ohgood/contract/point-reasons';
import { useState } from 'react';
import { won } from '../../../shared/format';
import { opsChanges } from '../api/keys';
import { useConsoleAction, useCustomerAudit, useCustomerPage } from '../api/queries';
import { callOps } from '../api/staff-api';
import { ActionButton } from '../components/action-dialog';
import { AuditTable } from '../components/audit-table';
import { minute, PAYMENT_STATUS, Rows, Status } from '../components/console-ui';
import { ContactNoteForm } from '../components/contact-note-form';
import { CustomerTimeline } from '../components/customer-timeline';
import { DebitsPanel } from '../components/debits-panel';
import { LimitAction } from '../components/limit-action';
import styles from '../components/ops-console.module.css';
import { canCall } from '../console-access';

type PersonalField = 'name' | 'email' | 'account';
const PERSONAL: Array<{ field: PersonalField; label: string }> = [
  { field: 'name', label: '이름' },
  { field: 'email', label: '이메일' },
  { field: 'account', label: '계좌' },
];

/**
 * One customer as support and risk see them (docs/rules/operations.md#O4–O8): personal data masked, '보기'
 * reveals one field (audited); grade, limit and use; statements with their lines; payments (refund on the
 * merchant's behalf); points; notices sent; suspension and lockouts; contact notes and the timeline (#O17);
 * the customer's audit history. The actions show only for a role the contract lets call them.
 */
export function CustomerDetail({ customerId, staffRole }: { customerId: number; staffRole: StaffRole }) {
  const page = useCustomerPage(customerId);
  const audit = useCustomerAudit(customerId);
  const [revealed, setRevealed] = useState<Partial<Record<PersonalField, string>>>({});
  const reveal = useConsoleAction(
    (body: { field: PersonalField; reason: string }) => callOps(api.reveal, { params: { id: customerId }, body }),
    () => opsChanges.reveal(customerId),
  );
  const can = (endpoint: Parameters<typeof canCall>[0]) => canCall(endpoint, staffRole);
  const data = page.data;
  const c = data?.customer;

  return (
    <section className={styles.card} aria-labelledby="customer-title">
      <h2 id="customer-title">
        고객 #{customerId} {c && <span className={styles.muted}>{c.nickname}</span>}{' '}
        {c && <span className={c.suspended ? styles.tagDanger : styles.tag}>{c.suspended ? '결제 정지' : '정상'}</span>}
      </h2>
      <Status read={page} />
      {data && c && (
        <>
          <div className={styles.split}>
            <table className={styles.table} aria-label="개인정보">
              <tbody>
                {PERSONAL.map(({ field, label }) => (
                  <tr key={field}>
                    <th scope="row">{label}</th>
                    <td>
                      <span data-testid={`personal-${field}`}>{revealed[field] ?? c[field]}</span>{' '}
                      {revealed[field] === undefined && (
                        <ActionButton
                          label="보기"
                          title={`${label} 보기`}
                          variant="linkButton"
                          summary={`${withParticle(label, '을/를')} 가리지 않고 봅니다. 감사 기록에 남아요.`}
                          run={async (reason) => {
                            const { value } = await reveal({ field, reason });
                            setRevealed((r) => ({ ...r, [field]: value }));
                          }}
                        />
                      )}
                    </td>
                  </tr>
                ))}
                <tr>
                  <th scope="row">은행 · 가입일</th>
                  <td>
                    {c.accountName} · {c.createdAt.slice(0, 10)}
                  </td>
                </tr>
              </tbody>
            </table>
            <table className={styles.table} aria-label="등급과 한도">
              <tbody>
                <tr>
                  <th scope="row">등급</th>
                  <td>
                    {c.gradeName} ({c.gradePoint}점)
                  </td>
                </tr>
                <tr>
                  <th scope="row">월 한도</th>
                  <td>
                    <span data-testid="limit">{won(c.limit)}</span>{' '}
                    {c.creditLimit !== null && (
                      <span className={styles.muted}>(등급 한도 {won(c.gradeLimit)}에서 조정됨)</span>
                    )}
                  </td>
                </tr>
                <tr>
                  <th scope="row">이번 달 사용</th>
                  <td>
                    {won(c.usedThisMonth)} / {won(c.limit)} · 포인트 {c.pointBalance.toLocaleString('ko-KR')}P
                  </td>
                </tr>
                <tr>
                  <th scope="row">세션 · 업로드</th>
                  <td>
                    {c.sessionsRevokedAt ? `세션 끊음 ${minute(c.sessionsRevokedAt)}` : '세션 정상'} ·{' '}
                    {c.uploadBannedUntil ? `업로드 금지 ~${minute(c.uploadBannedUntil)}` : '업로드 가능'}
                  </td>
                </tr>
              </tbody>
            </table>
          </div>

          <CustomerActions customerId={customerId} page={data} can={can} />
          {can(opsCollectionsEndpoints.debits) && <DebitsPanel customerId={customerId} />}

          {can(desk.addNote) && <ContactNoteForm customerId={customerId} staffRole={staffRole} />}
          {can(desk.timeline) && <CustomerTimeline customerId={customerId} />}

          <h3>결제 정지 이력</h3>
          {data.suspensionHistory.length === 0 ? (
            <p className={styles.muted}>이력이 없습니다.</p>
          ) : (
            <ul>
              {data.suspensionHistory.map((h) => (
                <li key={`${h.at}-${h.what}`}>
                  {minute(h.at)} {h.what}
                </li>
              ))}
            </ul>
          )}

          <h3>잠금</h3>
          {data.lockouts.length === 0 ? (
            <p className={styles.muted}>잠금이 없습니다.</p>
          ) : (
            <ul>
              {data.lockouts.map((l) => (
                <li key={l.key}>
                  {l.key} {l.count}회 (~{minute(l.until)})
                </li>
              ))}
            </ul>
          )}

          <Statements statements={data.statements} />
          <Payments customerId={customerId} payments={data.payments} canRefund={can(api.refund)} />

          <div className={styles.split}>
            <div>
              <h3>포인트 내역</h3>
              <Rows
                empty="포인트 내역이 없습니다."
                rows={data.points.map((p, i) => ({
                  key: `${p.date}-${i}`,
                  cells: [
                    p.date,
                    POINT_REASON_LABELS[p.reason as PointReason] ?? p.reason,
                    `${p.amount > 0 ? '+' : ''}${p.amount.toLocaleString('ko-KR')}P`,
                  ],
                }))}
              />
            </div>
            <div>
              <h3>보낸 알림</h3>
              <Rows
                empty="보낸 알림이 없습니다."
                rows={data.notices.map((n, i) => ({
                  key: `${n.at}-${i}`,
                  cells: [minute(n.at), n.title, n.body],
                }))}
              />
            </div>
          </div>
        </>
      )}
      <h3>이 고객의 감사 기록</h3>
      <Status read={audit} />
      {audit.data && <AuditTable items={audit.data.items} />}
    </section>
  );
}

/** Risk's actions on the customer, each with a reason and a confirmation. */
type CustomerAction = typeof api.suspend | typeof api.lift | typeof api.resetLockouts | typeof api.revokeSessions;

function CustomerActions({
  customerId,
  page,
  can,
}: {
  customerId: number;
  page: OpsCustomerPage;
  can: (endpoint: Parameters<typeof canCall>[0]) => boolean;
}) {
  const c = page.customer;
  const run = useConsoleAction(
    ({ endpoint, reason }: { endpoint: CustomerAction; reason: string }) =>
      callOps(endpoint, { params: { id: customerId }, body: { reason } }),
    () => opsChanges.customer(customerId),
  );
  const act = (endpoint: CustomerAction) => (reason: string) => run({ endpoint, reason });
  const actions = [
    can(api.changeLimit) && <LimitAction key="limit" customerId={customerId} customer={c} />,
    c.suspended
      ? can(api.lift) && <ActionButton key="lift" label="정지 해제" variant="button" run={act(api.lift)} />
      : can(api.suspend) && <ActionButton key="suspend" label="결제 정지" variant="danger" run={act(api.suspend)} />,
    can(api.resetLockouts) && <ActionButton key="lockouts" label="잠금 초기화" run={act(api.resetLockouts)} />,
    can(api.revokeSessions) && (
      <ActionButton
        key="sessions"
        label="모든 세션 끊기"
        summary="이 고객의 모든 기기에서 로그아웃됩니다."
        run={act(api.revokeSessions)}
      />
    ),
  ].filter(Boolean);
  if (actions.length === 0) return <p className={styles.muted}>이 역할은 조회만 할 수 있습니다.</p>;
  return (
    <fieldset className={styles.actions}>
      <legend>고객 조치</legend>
      {actions}
    </fieldset>
  );
}

function Statements({ statements }: { statements: OpsCustomerPage['statements'] }) {
  return (
    <>
      <h3>청구서</h3>
      {statements.length === 0 && <p className={styles.muted}>청구서가 없습니다.</p>}
      {statements.map((s) => (
        <details key={s.month} className={styles.statement}>
          <summary>
            {s.month} · {s.lines.length}건 ·{' '}
            {won(s.lines.reduce((sum, l) => sum + (l.status === 'REFUNDED' ? 0 : l.price), 0))}{' '}
            {s.paid && <span className={styles.tag}>납부 완료</span>}
            {s.overdue && <span className={styles.tagDanger}>연체</span>}
            {s.extension && <span className={styles.tag}>{s.extension === 'AUTO' ? '자동 연장' : '연장'}</span>}
          </summary>
          <table className={styles.table}>
            <tbody>
              {s.lines.map((l) => (
                <tr key={l.paymentId}>
                  <td>#{l.paymentId}</td>
                  <td>{l.requestName}</td>
                  <td>{won(l.price)}</td>
                  <td>{PAYMENT_STATUS[l.status] ?? l.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ))}
    </>
  );
}

function Payments({
  customerId,
  payments,
  canRefund,
}: {
  customerId: number;
  payments: OpsCustomerPage['payments'];
  canRefund: boolean;
}) {
  const refund = useConsoleAction(
    (v: { paymentId: number; reason: string }) =>
      callOps(api.refund, { params: { paymentId: v.paymentId }, body: { reason: v.reason } }),
    () => opsChanges.refund(customerId),
  );
  return (
    <>
      <h3>결제 내역</h3>
      {payments.length === 0 ? (
        <p className={styles.muted}>결제 내역이 없습니다.</p>
      ) : (
        <table className={styles.table}>
          <thead>
            <tr>
              <th>일시</th>
              <th>상품</th>
              <th>금액</th>
              <th>포인트 사용</th>
              <th>상태</th>
              {canRefund && <th>환불</th>}
            </tr>
          </thead>
          <tbody>
            {payments.map((p) => (
              <tr key={p.paymentId}>
                <td>{minute(p.date)}</td>
                <td>{p.requestName}</td>
                <td>{won(p.totalPrice)}</td>
                <td>{p.pointUsed.toLocaleString('ko-KR')}P</td>
                <td>{PAYMENT_STATUS[p.status] ?? p.status}</td>
                {canRefund && (
                  <td>
                    {p.status !== 'REFUNDED' && (
                      <ActionButton
                        label="환불"
                        title={`결제 #${p.paymentId} 환불`}
                        variant="linkButton"
                        summary={`${p.requestName} ${withParticle(won(p.totalPrice), '을/를')} 가맹점 대신 환불합니다.`}
                        run={(reason) => refund({ paymentId: p.paymentId, reason })}
                      />
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
