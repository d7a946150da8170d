import { opsEndpoints as api } from '@ohgood/contract/ops';
import { type FormEvent, useState } from 'react';
import { useEnrolment } from '../api/queries';
import { callOps } from '../api/staff-api';
import { FormError, failure, Status, TotpInput } from '../components/console-ui';
import styles from '../components/ops-console.module.css';

/** `/ops/enrol/<token>`: the one-time link's page — scan the QR, set a password, confirm with a code. */
export function Enrol({ token }: { token: string }) {
  const info = useEnrolment(token);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (password.length < 12) return setError('비밀번호는 12자 이상으로 정해주세요.');
    try {
      await callOps(api.enrol, { params: { token }, body: { password, code } });
      setDone(true);
    } catch (e) {
      setError(failure(e));
    }
  }

  if (done) {
    return (
      <div className={`${styles.card} ${styles.signIn}`}>
        <h1>등록이 끝났어요</h1>
        <a href="/ops">운영 콘솔에 로그인하기</a>
      </div>
    );
  }
  return (
    <form className={`${styles.card} ${styles.signIn}`} onSubmit={submit}>
      <h1>운영자 등록</h1>
      <Status read={info} />
      {info.data && (
        <>
          <p>
            {info.data.name} ({info.data.email}, {info.data.role})
          </p>
          <img
            src={`data:image/svg+xml;utf8,${encodeURIComponent(info.data.qrSvg)}`}
            alt="인증 앱으로 스캔할 OTP QR 코드"
            width={200}
            height={200}
          />
          <p>스캔할 수 없으면 이 키를 입력하세요: {info.data.secret}</p>
          <label>
            새 비밀번호 (12자 이상)
            <input
              className={styles.input}
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
          <TotpInput value={code} onChange={setCode} />
          <FormError error={error} />
          <button className={styles.button} type="submit">
            등록하기
          </button>
        </>
      )}
    </form>
  );
}
