import { BANK_NAMES } from '@ohgood/contract/bank';
import type { StaffRole } from '@ohgood/contract/endpoint';
import type { Bank } from '@ohgood/contract/limits';
import { opsSettlementEndpoints as api } from '@ohgood/contract/settlements';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { won } from '../../../shared/format';
import { opsChanges } from '../api/keys';
import { merchantReads, useConsoleAction } from '../api/queries';
import { callOps } from '../api/staff-api';
import { canCall } from '../console-access';
import { ActionButton } from './action-dialog';
import { minute, Rows, Status } from './console-ui';
import styles from './ops-console.module.css';

const SETTLEMENT_STATUS: Record<string, string> = {
  PENDING: '지급 대기',
  PAID: '지급 완료',
  NO_PAYOUT: '지급 없음(이월)',
};

const percent = (bps: number) => `${(bps / 100).toFixed(2)}%`;

/**
 * A merchant's settlement in the console (docs/rules/settlement.md#M8): fee, cycle, settlement account
 * (masked), what is owed to it, its hold and its latest settlements, with the actions the operator's role may
 * take (fee, cycle and account: ADMIN; verifying the account, holding and releasing: RISK and ADMIN). The
 * server refuses any other role anyway.
 */
export function MerchantSettlement({ merchantId, staffRole }: { merchantId: number; staffRole: StaffRole }) {
  const may = (endpoint: Parameters<typeof canCall>[0]) => canCall(endpoint, staffRole);
  const view = useQuery(merchantReads.settlement(merchantId));
  const act = useConsoleAction((call: () => Promise<unknown>) => call(), opsChanges.merchants);
  const v = view.data;
  const params = { id: merchantId };
  return (
    <section className={styles.card} aria-labelledby="merchant-settlement-title">
      <h3 id="merchant-settlement-title">정산</h3>
      <Status read={view} />
      {v && (
        <>
          <dl className={styles.split}>
            <div>
              <dt>수수료 · 주기</dt>
              <dd>
                {percent(v.feeBps)} · D+{v.cycleDays} 영업일
              </dd>
            </div>
            <div>
              <dt>정산 계좌</dt>
              <dd>
                {v.account
                  ? `${v.account.bank} ${v.account.account} (${v.account.verified ? '확인됨' : '확인 전'})`
                  : '없음'}
              </dd>
            </div>
            <div>
              <dt>미지급 잔액</dt>
              <dd>{won(v.payable)}</dd>
            </div>
            <div>
              <dt>지급 보류</dt>
              <dd>{v.hold ? `${v.hold.reason} (${minute(v.hold.heldAt)}부터)` : '없음'}</dd>
            </div>
          </dl>
          <div className={styles.row}>
            {may(api.setSettlementTerms) && (
              <TermsAction
                feeBps={v.feeBps}
                cycleDays={v.cycleDays}
                run={(body) => act(() => callOps(api.setSettlementTerms, { params, body }))}
              />
            )}
            {may(api.setSettlementAccount) && (
              <AccountAction run={(body) => act(() => callOps(api.setSettlementAccount, { params, body }))} />
            )}
            {may(api.verifySettlementAccount) && v.account && !v.account.verified && (
              <ActionButton
                label="계좌 확인"
                summary="예금주와 계좌를 확인했습니다. 등록한 운영자는 확인할 수 없어요."
                run={(reason) => act(() => callOps(api.verifySettlementAccount, { params, body: { reason } }))}
              />
            )}
            {v.hold
              ? may(api.releasePayouts) && (
                  <ActionButton
                    label="보류 해제"
                    summary="지급 예정일이 지난 정산부터 다시 지급해요."
                    run={(reason) => act(() => callOps(api.releasePayouts, { params, body: { reason } }))}
                  />
                )
              : may(api.holdPayouts) && (
                  <ActionButton
                    label="지급 보류"
                    variant="danger"
                    summary="해제할 때까지 이 가맹점에 정산금을 지급하지 않아요."
                    run={(reason) => act(() => callOps(api.holdPayouts, { params, body: { reason } }))}
                  />
                )}
          </div>
          <Rows
            empty="정산 내역이 없습니다."
            rows={v.settlements.map((s) => ({
              key: s.settlementId,
              cells: [
                s.date,
                `매출 ${won(s.sales)}`,
                `환불 ${won(s.refunds)}`,
                `수수료 ${won(s.fees)}`,
                `정산 ${won(s.net)}`,
                `${s.dueDate} 지급`,
                SETTLEMENT_STATUS[s.status] ?? s.status,
              ],
            }))}
          />
        </>
      )}
    </section>
  );
}

function TermsAction(props: {
  feeBps: number;
  cycleDays: number;
  run: (body: { feeBps: number; cycleDays: number; reason: string }) => Promise<unknown>;
}) {
  const [feeBps, setFeeBps] = useState(String(props.feeBps));
  const [cycleDays, setCycleDays] = useState(String(props.cycleDays));
  const fee = Number(feeBps);
  const days = Number(cycleDays);
  return (
    <ActionButton
      label="수수료 · 주기 변경"
      fields={
        <>
          <label className={styles.field}>
            수수료 (bp, 250 = 2.5%)
            <input
              className={styles.input}
              inputMode="numeric"
              value={feeBps}
              onChange={(e) => setFeeBps(e.target.value)}
            />
          </label>
          <label className={styles.field}>
            정산 주기 (D+영업일)
            <input
              className={styles.input}
              inputMode="numeric"
              value={cycleDays}
              onChange={(e) => setCycleDays(e.target.value)}
            />
          </label>
        </>
      }
      check={() =>
        Number.isInteger(fee) && fee >= 0 && fee <= 10_000 && Number.isInteger(days) && days >= 1 && days <= 10
          ? null
          : '수수료는 0–10000bp, 주기는 1–10 영업일로 입력해주세요.'
      }
      summary={`수수료 ${percent(props.feeBps)} → ${percent(fee)}, D+${props.cycleDays} → D+${days} 영업일`}
      run={(reason) => props.run({ feeBps: fee, cycleDays: days, reason })}
    />
  );
}

function AccountAction({ run }: { run: (body: { bank: Bank; account: string; reason: string }) => Promise<unknown> }) {
  const [bank, setBank] = useState<Bank>('국민');
  const [account, setAccount] = useState('');
  const digits = account.replace(/[^\d]/g, '');
  return (
    <ActionButton
      label="정산 계좌 등록"
      fields={
        <>
          <label className={styles.field}>
            은행
            <select className={styles.input} value={bank} onChange={(e) => setBank(e.target.value as Bank)}>
              {(Object.keys(BANK_NAMES) as Bank[]).map((code) => (
                <option key={code} value={code}>
                  {BANK_NAMES[code]}
                </option>
              ))}
            </select>
          </label>
          <label className={styles.field}>
            계좌번호
            <input
              className={styles.input}
              inputMode="numeric"
              value={account}
              onChange={(e) => setAccount(e.target.value)}
            />
          </label>
        </>
      }
      check={() => (/^\d{10,14}$/.test(digits) ? null : '계좌번호는 숫자 10–14자리로 입력해주세요.')}
      summary="새 계좌는 다른 운영자가 확인할 때까지 지급에 쓰이지 않아요."
      run={(reason) => run({ bank, account: digits, reason })}
    />
  );
}
