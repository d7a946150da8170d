import type { StaffRole } from '@ohgood/contract/endpoint';
import { merchantUserOpsEndpoints } from '@ohgood/contract/merchant-portal';
import { opsEndpoints as api } from '@ohgood/contract/ops';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { won } from '../../../shared/format';
import { opsChanges } from '../api/keys';
import { merchantReads, useConsoleAction, useMerchants } from '../api/queries';
import { callOps } from '../api/staff-api';
import { ActionButton } from '../components/action-dialog';
import { CopyButton, minute, PAYMENT_STATUS, REQUEST_STATUS, Rows, Status } from '../components/console-ui';
import { MerchantSettlement } from '../components/merchant-settlement';
import { MerchantWebhooks } from '../components/merchant-webhooks';
import styles from '../components/ops-console.module.css';
import { canCall } from '../console-access';
import { MerchantUsers } from './merchant-users';

/**
 * Merchants (RISK and ADMIN, docs/rules/operations.md#O7): the list and one merchant's settlement, holds and
 * webhook health for both; for ADMIN also onboarding, disabling, rotating the API key — a new key is shown
 * once, here, with a copy button —, the portal's users and the merchant's recent requests and refunds. Each
 * action shows only to the roles the contract lets call it.
 */
export function Merchants({ staffRole }: { staffRole: StaffRole }) {
  const [selected, setSelected] = useState<{ id: number; name: string } | null>(null);
  const may = { rotate: canCall(api.rotateMerchantKey, staffRole), disable: canCall(api.disableMerchant, staffRole) };
  const [newKey, setNewKey] = useState<{ merchantId: number; apiKey: string } | null>(null);
  const list = useMerchants();
  const rotateKey = useConsoleAction(
    ({ id, reason }: { id: number; reason: string }) =>
      callOps(api.rotateMerchantKey, { params: { id }, body: { reason } }),
    opsChanges.merchants,
  );
  const disable = useConsoleAction(
    ({ id, reason }: { id: number; reason: string }) =>
      callOps(api.disableMerchant, { params: { id }, body: { reason } }),
    opsChanges.merchants,
  );
  return (
    <>
      <section className={styles.card} aria-labelledby="merchants-title">
        <div className={styles.row}>
          <h2 id="merchants-title">가맹점</h2>
          {canCall(api.createMerchant, staffRole) && <CreateMerchant onCreated={setNewKey} />}
        </div>
        {newKey && <KeyOnce {...newKey} onClose={() => setNewKey(null)} />}
        <Status read={list} />
        {list.data?.items.length === 0 && <p>가맹점이 없습니다.</p>}
        {list.data && list.data.items.length > 0 && (
          <table className={styles.table}>
            <thead>
              <tr>
                <th>번호</th>
                <th>이름</th>
                <th>분류</th>
                <th>상태</th>
                <th>등록일</th>
                <th>조치</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((m) => (
                <tr key={m.merchantId} className={selected?.id === m.merchantId ? styles.selectedRow : undefined}>
                  <td>#{m.merchantId}</td>
                  <td>{m.name}</td>
                  <td>{m.category ?? '-'}</td>
                  <td>{m.disabled ? <span className={styles.tagDanger}>중지</span> : '사용 중'}</td>
                  <td>{m.createdAt.slice(0, 10)}</td>
                  <td>
                    <div className={styles.row}>
                      <button
                        type="button"
                        className={styles.linkButton}
                        onClick={() => setSelected({ id: m.merchantId, name: m.name })}
                      >
                        상세
                      </button>
                      {may.rotate && !m.disabled && (
                        <ActionButton
                          label="키 교체"
                          title={`${m.name} API 키 교체`}
                          variant="linkButton"
                          summary="지금 쓰는 키는 바로 멈추고, 새 키는 한 번만 보여요."
                          run={async (reason) => setNewKey(await rotateKey({ id: m.merchantId, reason }))}
                        />
                      )}
                      {may.disable && !m.disabled && (
                        <ActionButton
                          label="사용 중지"
                          title={`${m.name} 사용 중지`}
                          variant="linkButton"
                          summary="이 가맹점의 키로는 더 이상 결제 요청을 만들 수 없어요."
                          run={(reason) => disable({ id: m.merchantId, reason })}
                        />
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {selected !== null && (
        <MerchantDetail key={selected.id} merchantId={selected.id} name={selected.name} staffRole={staffRole} />
      )}
    </>
  );
}

function CreateMerchant({ onCreated }: { onCreated: (key: { merchantId: number; apiKey: string }) => void }) {
  const [name, setName] = useState('');
  const [category, setCategory] = useState('');
  const create = useConsoleAction(
    (body: { name: string; category?: string; reason: string }) => callOps(api.createMerchant, { body }),
    opsChanges.merchants,
  );
  return (
    <ActionButton
      label="가맹점 등록"
      variant="button"
      fields={
        <>
          <label className={styles.field}>
            가맹점 이름
            <input className={styles.input} value={name} maxLength={50} onChange={(e) => setName(e.target.value)} />
          </label>
          <label className={styles.field}>
            분류 (선택)
            <input
              className={styles.input}
              value={category}
              maxLength={30}
              onChange={(e) => setCategory(e.target.value)}
            />
          </label>
        </>
      }
      check={() => (name.trim() ? null : '가맹점 이름을 입력해주세요.')}
      summary={`'${name.trim()}' 가맹점을 등록하고 API 키를 발급합니다.`}
      run={async (reason) =>
        onCreated(await create({ name: name.trim(), category: category.trim() || undefined, reason }))
      }
    />
  );
}

/** A new API key, shown this once (only its hash is kept), with a copy button. */
function KeyOnce({ merchantId, apiKey, onClose }: { merchantId: number; apiKey: string; onClose: () => void }) {
  return (
    <section className={styles.card} aria-label="새 API 키">
      <p>
        가맹점 #{merchantId}의 새 API 키예요. <strong>이 화면을 닫으면 다시 볼 수 없어요.</strong>
      </p>
      <p className={styles.secret} data-testid="api-key">
        {apiKey}
      </p>
      <div className={styles.row}>
        <CopyButton value={apiKey} what="API 키" />
        <button type="button" className={styles.secondary} onClick={onClose}>
          닫기
        </button>
      </div>
    </section>
  );
}

function MerchantDetail({ merchantId, name, staffRole }: { merchantId: number; name: string; staffRole: StaffRole }) {
  const shows = {
    activity: canCall(api.merchant, staffRole),
    users: canCall(merchantUserOpsEndpoints.merchantUsers, staffRole),
  };
  // The sections show together, once each has answered (or failed, with its own retry): one answer arriving
  // after the others would push the buttons under it down while the operator reaches for them, and a press
  // before the move with a release after it clicks nothing. A read that has answered once stays `isFetched`
  // while it reads again (a retry, an action's refetch), so the open detail stays open.
  const open = useQueries({
    queries: [
      ...(shows.activity ? [merchantReads.activity(merchantId)] : []),
      ...(shows.users ? [merchantReads.users(merchantId)] : []),
      merchantReads.settlement(merchantId),
      merchantReads.webhooks(merchantId),
    ].map((read) => ({ ...read, refetchOnMount: true })),
    combine: (reads) => reads.every((read) => read.isFetched),
  });
  return (
    <section className={styles.card} aria-labelledby="merchant-title" aria-busy={!open}>
      <h2 id="merchant-title">
        가맹점 #{merchantId} {name}
      </h2>
      {open ? (
        <>
          {shows.activity && <RecentActivity merchantId={merchantId} />}
          {shows.users && <MerchantUsers merchantId={merchantId} />}
          <MerchantSettlement merchantId={merchantId} staffRole={staffRole} />
          <MerchantWebhooks merchantId={merchantId} />
        </>
      ) : (
        <p role="status">불러오는 중...</p>
      )}
    </section>
  );
}

/** A merchant's recent requests and refunds (ADMIN). */
function RecentActivity({ merchantId }: { merchantId: number }) {
  const detail = useQuery(merchantReads.activity(merchantId));
  const d = detail.data;
  return (
    <>
      <Status read={detail} />
      {d && (
        <div className={styles.split}>
          <div>
            <h3>최근 결제 요청</h3>
            <Rows
              empty="요청이 없습니다."
              rows={d.recentRequests.map((r) => ({
                key: r.requestId,
                cells: [minute(r.createdAt), r.requestName, won(r.totalPrice), REQUEST_STATUS[r.status] ?? r.status],
              }))}
            />
          </div>
          <div>
            <h3>최근 환불</h3>
            <Rows
              empty="환불이 없습니다."
              rows={d.recentRefunds.map((r) => ({
                key: r.paymentId,
                cells: [minute(r.refundedAt), r.requestName, won(r.totalPrice), PAYMENT_STATUS.REFUNDED ?? '환불'],
              }))}
            />
          </div>
        </div>
      )}
    </>
  );
}
