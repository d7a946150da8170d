import { STAFF_ROLES, type StaffRole } from '@ohgood/contract/endpoint';
import { opsEndpoints as api } from '@ohgood/contract/ops';
import { useState } from 'react';
import { opsChanges } from '../api/keys';
import { useConsoleAction, useStaffList } from '../api/queries';
import { callOps } from '../api/staff-api';
import { ActionButton } from '../components/action-dialog';
import { CopyButton, Status } from '../components/console-ui';
import styles from '../components/ops-console.module.css';
import { ROLE_LABELS } from '../console-access';

function RoleSelect({ value, onChange }: { value: StaffRole; onChange: (role: StaffRole) => void }) {
  return (
    <label className={styles.field}>
      역할
      <select className={styles.input} value={value} onChange={(e) => onChange(e.target.value as StaffRole)}>
        {STAFF_ROLES.map((role) => (
          <option key={role} value={role}>
            {ROLE_LABELS[role]}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * Operators (ADMIN, docs/rules/operations.md#O1–O3): accounts and roles; adding one gives a one-time enrolment
 * link (a day long) to send them; a role change or a disable ends their open sessions.
 */
export function Staff({ myStaffId }: { myStaffId: number }) {
  const [link, setLink] = useState<string | null>(null);
  const list = useStaffList();
  const disable = useConsoleAction(
    ({ id, reason }: { id: number; reason: string }) => callOps(api.disableStaff, { params: { id }, body: { reason } }),
    opsChanges.staff,
  );
  return (
    <section className={styles.card} aria-labelledby="staff-title">
      <div className={styles.row}>
        <h2 id="staff-title">운영자</h2>
        <CreateStaff onCreated={(url) => setLink(new URL(url, window.location.origin).toString())} />
      </div>
      {link && (
        <section className={styles.card} aria-label="등록 링크">
          <p>이 링크를 새 운영자에게 전달하세요. 하루 동안 한 번만 쓸 수 있어요.</p>
          <p className={styles.secret}>{link}</p>
          <CopyButton value={link} what="등록 링크" />
        </section>
      )}
      <Status read={list} />
      {list.data && (
        <table className={styles.table}>
          <thead>
            <tr>
              <th>번호</th>
              <th>이름</th>
              <th>이메일</th>
              <th>역할</th>
              <th>상태</th>
              <th>조치</th>
            </tr>
          </thead>
          <tbody>
            {list.data.items.map((s) => (
              <tr key={s.staffId}>
                <td>#{s.staffId}</td>
                <td>{s.name}</td>
                <td>{s.email}</td>
                <td>{ROLE_LABELS[s.role]}</td>
                <td>
                  {s.disabled ? (
                    <span className={styles.tagDanger}>중지</span>
                  ) : s.enrolled ? (
                    '사용 중'
                  ) : (
                    <span className={styles.tag}>등록 대기</span>
                  )}
                </td>
                <td>
                  <div className={styles.row}>
                    {!s.disabled && s.staffId !== myStaffId && (
                      <>
                        <ChangeRole staffId={s.staffId} name={s.name} current={s.role} />
                        <ActionButton
                          label="사용 중지"
                          title={`${s.name} 사용 중지`}
                          variant="linkButton"
                          summary="이 운영자는 바로 로그아웃되고 다시 로그인할 수 없어요."
                          run={(reason) => disable({ id: s.staffId, reason })}
                        />
                      </>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function ChangeRole({ staffId, name, current }: { staffId: number; name: string; current: StaffRole }) {
  const [role, setRole] = useState<StaffRole>(current);
  const setStaffRole = useConsoleAction(
    (body: { role: StaffRole; reason: string }) => callOps(api.setStaffRole, { params: { id: staffId }, body }),
    opsChanges.staff,
  );
  return (
    <ActionButton
      label="역할 변경"
      title={`${name} 역할 변경`}
      variant="linkButton"
      fields={<RoleSelect value={role} onChange={setRole} />}
      check={() => (role === current ? '지금과 다른 역할을 골라주세요.' : null)}
      summary={`${ROLE_LABELS[current]} → ${ROLE_LABELS[role]} (열린 세션은 끝나요)`}
      run={(reason) => setStaffRole({ role, reason })}
    />
  );
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function CreateStaff({ onCreated }: { onCreated: (enrolmentUrl: string) => void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<StaffRole>('SUPPORT');
  const create = useConsoleAction(
    (body: { email: string; name: string; role: StaffRole; reason: string }) => callOps(api.createStaff, { body }),
    opsChanges.staff,
  );
  return (
    <ActionButton
      label="운영자 추가"
      variant="button"
      fields={
        <>
          <label className={styles.field}>
            이메일
            <input
              className={styles.input}
              type="email"
              value={email}
              maxLength={254}
              onChange={(e) => setEmail(e.target.value)}
            />
          </label>
          <label className={styles.field}>
            이름
            <input className={styles.input} value={name} maxLength={50} onChange={(e) => setName(e.target.value)} />
          </label>
          <RoleSelect value={role} onChange={setRole} />
        </>
      }
      check={() =>
        !EMAIL.test(email.trim()) ? '이메일 형식이 올바르지 않습니다.' : name.trim() ? null : '이름을 입력해주세요.'
      }
      summary={`${name.trim()} (${email.trim()}) · ${ROLE_LABELS[role]}`}
      run={async (reason) => {
        const created = await create({ email: email.trim(), name: name.trim(), role, reason });
        onCreated(created.enrolmentUrl);
      }}
    />
  );
}
