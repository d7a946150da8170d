import { portalEndpoints as api } from '@ohgood/contract/merchant-portal';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { callPortal } from '../api/portal-api';
import { useEnrolment } from '../api/queries';
import styles from '../components/portal.module.css';
import { CodeField, FormError, failure, ReadState } from '../components/portal-ui';

/** `/merchant/portal/enrol/<token>`: the one-time link — scan the QR, set a password, confirm with a code. */
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
      await callPortal(api.enrol, { params: { token }, body: { password, code } });
      setDone(true);
    } catch (e) {
      setError(failure(e));
    }
  }

  if (done) {
    return (
      <main className={`${styles.card} ${styles.signIn}`}>
        <h1 className={styles.brand}>등록이 끝났어요</h1>
        <Link to="/merchant/portal">가맹점 포털에 로그인하기</Link>
      </main>
    );
  }
  return (
    <main className={`${styles.card} ${styles.signIn}`}>
      <h1 className={styles.brand}>가맹점 사용자 등록</h1>
      <ReadState read={info} isEmpty={false} empty="">
        {info.data && (
          <form className={styles.form} onSubmit={submit}>
            <p>
              {info.data.merchantName} · {info.data.name} ({info.data.email})
            </p>
            <img
              src={`data:image/svg+xml;utf8,${encodeURIComponent(info.data.qrSvg)}`}
              alt="인증 앱으로 스캔할 OTP QR 코드"
              width={200}
              height={200}
            />
            <p>
              스캔할 수 없으면 이 키를 입력하세요: <span className={styles.mono}>{info.data.secret}</span>
            </p>
            <label className={styles.field}>
              새 비밀번호 (12자 이상)
              <input
                className={styles.input}
                type="password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </label>
            <CodeField value={code} onChange={setCode} />
            <FormError error={error} />
            <button className={styles.primary} type="submit">
              등록하기
            </button>
          </form>
        )}
      </ReadState>
    </main>
  );
}
