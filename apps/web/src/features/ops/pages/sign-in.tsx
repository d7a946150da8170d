import type { StaffMe } from '@ohgood/contract/ops';
import { opsEndpoints as api } from '@ohgood/contract/ops';
import { type FormEvent, useState } from 'react';
import { callOps, opsToken } from '../api/staff-api';
import { FormError, failure, TotpInput } from '../components/console-ui';
import styles from '../components/ops-console.module.css';

/** Step one, the password; step two, the authenticator's code (docs/rules/operations.md#O2). */
export function SignIn({ onSignedIn }: { onSignedIn: (me: StaffMe) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [stage, setStage] = useState<'password' | 'totp'>('password');
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      if (stage === 'password') {
        const { token } = await callOps(api.signIn, { body: { email, password } });
        opsToken.set(token);
        setStage('totp');
      } else {
        onSignedIn(await callOps(api.verifyTotp, { body: { code } }));
      }
    } catch (e) {
      setError(failure(e));
    }
  }

  return (
    <form className={`${styles.card} ${styles.signIn}`} onSubmit={submit}>
      <h1>오굿페이 운영 콘솔</h1>
      {stage === 'password' ? (
        <>
          <label>
            이메일
            <input
              className={styles.input}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              autoComplete="username"
            />
          </label>
          <label>
            비밀번호
            <input
              className={styles.input}
              type="password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              autoComplete="current-password"
            />
          </label>
        </>
      ) : (
        <TotpInput value={code} onChange={setCode} />
      )}
      <FormError error={error} />
      <button className={styles.button} type="submit">
        {stage === 'password' ? '다음' : '로그인'}
      </button>
    </form>
  );
}
