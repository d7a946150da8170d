import { merchantUserOpsEndpoints as api } from '@ohgood/contract/merchant-portal';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { opsChanges } from '../api/keys';
import { merchantReads, useConsoleAction } from '../api/queries';
import { callOps } from '../api/staff-api';
import { ActionButton } from '../components/action-dialog';
import { CopyButton, Status } from '../components/console-ui';
import styles from '../components/ops-console.module.css';

/**
 * A merchant's users of the merchant portal (ADMIN, docs/rules/merchant-portal.md#M1): add one — the one-time
 * enrolment link is shown once, here — and end a user's sessions.
 */
export function MerchantUsers({ merchantId }: { merchantId: number }) {
  const users = useQuery(merchantReads.users(merchantId));
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [link, setLink] = useState<string | null>(null);
  const create = useConsoleAction(
    (body: { email: string; name: string; reason: string }) =>
      callOps(api.createMerchantUser, { params: { id: merchantId }, body }),
    opsChanges.merchants,
  );
  const endSessions = useConsoleAction(
    ({ id, reason }: { id: number; reason: string }) =>
      callOps(api.endMerchantUserSessions, { params: { id }, body: { reason } }),
    opsChanges.merchants,
  );
  return (
    <div>
      <div className={styles.row}>
        <h3>포털 사용자</h3>
        <ActionButton
          label="사용자 추가"
          title="가맹점 포털 사용자 추가"
          variant="secondary"
          fields={
            <>
              <label className={styles.field}>
                이메일
                <input className={styles.input} type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
              </label>
              <label className={styles.field}>
                이름
                <input className={styles.input} value={name} maxLength={50} onChange={(e) => setName(e.target.value)} />
              </label>
            </>
          }
          check={() => (email.trim() && name.trim() ? null : '이메일과 이름을 입력해주세요.')}
          summary={`${email.trim()}에게 보낼 일회용 등록 링크를 만듭니다 (24시간).`}
          run={async (reason) => {
            const created = await create({ email: email.trim(), name: name.trim(), reason });
            setLink(`${window.location.origin}${created.enrolmentUrl}`);
          }}
        />
      </div>
      {link && (
        <section className={styles.card} aria-label="등록 링크">
          <p>
            등록 링크예요. <strong>이 화면을 닫으면 다시 볼 수 없어요.</strong>
          </p>
          <p className={styles.secret}>{link}</p>
          <div className={styles.row}>
            <CopyButton value={link} what="등록 링크" />
            <button type="button" className={styles.secondary} onClick={() => setLink(null)}>
              닫기
            </button>
          </div>
        </section>
      )}
      <Status read={users} />
      {users.data?.items.length === 0 && <p>포털 사용자가 없습니다.</p>}
      {users.data && users.data.items.length > 0 && (
        <table className={styles.table}>
          <thead>
            <tr>
              <th>이메일</th>
              <th>이름</th>
              <th>상태</th>
              <th>열린 세션</th>
              <th>조치</th>
            </tr>
          </thead>
          <tbody>
            {users.data.items.map((u) => (
              <tr key={u.merchantUserId}>
                <td>{u.email}</td>
                <td>{u.name}</td>
                <td>{u.disabled ? '중지' : u.enrolled ? '사용 중' : '등록 대기'}</td>
                <td>{u.openSessions}</td>
                <td>
                  {u.openSessions > 0 && (
                    <ActionButton
                      label="세션 종료"
                      title={`${u.name} 세션 모두 종료`}
                      variant="linkButton"
                      summary="이 사용자는 포털에 다시 로그인해야 해요."
                      run={(reason) => endSessions({ id: u.merchantUserId, reason })}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
