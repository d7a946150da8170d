import { BANK_NAMES } from '@ohgood/contract/bank';
import { BANKS } from '@ohgood/contract/limits';
import { opsCollectionsEndpoints as api, type DebitRow } from '@ohgood/contract/ops-collections';
import { useState } from 'react';
import { won } from '../../../shared/format';
import { collectionsChanges, useDebits } from '../api/collections-queries';
import { useConsoleAction } from '../api/queries';
import { callOps } from '../api/staff-api';
import { ActionButton } from './action-dialog';
import { Choice } from './choice';
import { minute, Status } from './console-ui';
import styles from './ops-console.module.css';

const STATUS_TEXT: Record<DebitRow['status'], string> = {
  PENDING: '진행 중',
  PAID: '출금 완료',
  FAILED: '실패',
  SKIPPED: '건너뜀',
};

/**
 * Collections on one customer (RISK, ADMIN; docs/rules/operations.md#O18–O20): the autopay debits with the
 * bank's answers, a retry of a refused one now (the answer is shown at once), a reminder now, and a new debit
 * account the customer then verifies in the app.
 */
export function DebitsPanel({ customerId }: { customerId: number }) {
  const debits = useDebits(customerId);
  const [answer, setAnswer] = useState<DebitRow | null>(null);
  const retry = useConsoleAction(
    (v: { statementId: number; reason: string }) => callOps(api.retryDebit, { params: { id: customerId }, body: v }),
    () => collectionsChanges.debit(customerId),
  );
  const remind = useConsoleAction(
    (reason: string) => callOps(api.remind, { params: { id: customerId }, body: { reason } }),
    () => collectionsChanges.customers(),
  );
  const items = debits.data?.items;
  // Only the latest refusal of a bill is offered again; an open debit is already being asked.
  const retryable = new Set<number>();
  const seen = new Set<number>();
  for (const d of items ?? []) {
    if (seen.has(d.statementId)) continue;
    seen.add(d.statementId);
    if (d.status === 'FAILED') retryable.add(d.attemptId);
  }
  return (
    <section aria-labelledby={`debits-${customerId}`}>
      <h3 id={`debits-${customerId}`}>자동 납부 출금</h3>
      <fieldset className={styles.actions}>
        <legend>수납 조치</legend>
        <ActionButton
          label="납부 안내 보내기"
          summary="가장 오래된 미납 청구서의 납부 안내 알림을 지금 보냅니다. 고객마다 하루 한 번만 보낼 수 있어요."
          run={remind}
        />
        <DebitAccountAction customerId={customerId} />
      </fieldset>
      {answer && (
        <p
          role="status"
          className={answer.status === 'PAID' ? styles.tag : styles.tagDanger}
          data-testid="retry-answer"
        >
          {answer.month} 재출금 결과: {answer.resultText}
          {answer.amount !== null ? ` · ${won(answer.amount)}` : ''}
        </p>
      )}
      <Status read={debits} />
      {items?.length === 0 && <p className={styles.muted}>자동 납부 출금 내역이 없습니다.</p>}
      {items && items.length > 0 && (
        <table className={styles.table} aria-label="자동 납부 출금 내역">
          <thead>
            <tr>
              <th>청구 월</th>
              <th>출금일</th>
              <th>금액</th>
              <th>상태</th>
              <th>은행 응답</th>
              <th>끝난 시각</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {items.map((d) => (
              <tr key={d.attemptId}>
                <td>{d.month}</td>
                <td>
                  {d.date}
                  {d.round > 0 ? ` (재출금 ${d.round})` : ''}
                </td>
                <td>{d.amount === null ? '-' : won(d.amount)}</td>
                <td>{STATUS_TEXT[d.status]}</td>
                <td>{d.resultText}</td>
                <td>{d.finishedAt ? minute(d.finishedAt) : '-'}</td>
                <td>
                  {retryable.has(d.attemptId) && (
                    <ActionButton
                      label="지금 다시 출금"
                      title={`${d.month} 청구서 다시 출금`}
                      variant="button"
                      summary="자동 납부와 같은 방법으로 지금 한 번 출금을 요청합니다. 진행 중인 출금이 있으면 그 출금의 결과를 보여 줘요."
                      run={async (reason) => {
                        const result = await retry({ statementId: d.statementId, reason });
                        setAnswer(result.debit);
                      }}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function DebitAccountAction({ customerId }: { customerId: number }) {
  const [bank, setBank] = useState<(typeof BANKS)[number]>(BANKS[0]);
  const [account, setAccount] = useState('');
  const change = useConsoleAction(
    (reason: string) =>
      callOps(api.debitAccount, { params: { id: customerId }, body: { bank, account: account.trim(), reason } }),
    () => collectionsChanges.customers(),
  );
  return (
    <ActionButton
      label="출금 계좌 새로 등록"
      summary={`${BANK_NAMES[bank]} ${account.trim()}로 바꿉니다. 고객이 앱에서 출금에 다시 동의하고 1원 인증 코드를 입력해야 자동 납부가 다시 시작돼요.`}
      check={() => (/^[\d\s-]{10,40}$/.test(account.trim()) ? null : '계좌번호를 숫자 10~14자리로 입력해주세요.')}
      fields={
        <>
          <Choice label="은행" value={bank} options={BANKS} names={(b) => BANK_NAMES[b]} onChange={setBank} />
          <label className={styles.field}>
            계좌번호
            <input
              className={styles.input}
              value={account}
              inputMode="numeric"
              maxLength={40}
              onChange={(e) => setAccount(e.target.value)}
            />
          </label>
        </>
      }
      run={change}
    />
  );
}
