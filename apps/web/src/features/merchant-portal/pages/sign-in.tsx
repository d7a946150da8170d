import { portalEndpoints as api, type PortalMe } from '@ohgood/contract/merchant-portal';
import { type FormEvent, useState } from 'react';
import { callPortal, portalToken } from '../api/portal-api';
import styles from '../components/portal.module.css';
import { CodeField, FormError, failure } from '../components/portal-ui';

/** Step one, the password; step two, the authenticator's code. */
export function SignIn({ onSignedIn }: { onSignedIn: (me: PortalMe) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [stage, setStage] = useState<'password' | 'totp'>('password');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      if (stage === 'password') {
        const { token } = await callPortal(api.signIn, { body: { email, password } });
        portalToken.set(token);
        setStage('totp');
      } else {
        onSignedIn(await callPortal(api.verifyTotp, { body: { code } }));
      }
    } catch (e) {
      setError(failure(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className={`${styles.card} ${styles.signIn}`}>
      <form className={styles.form} onSubmit={submit}>
        <h1 className={styles.brand}>오굿페이 가맹점 포털</h1>
        {stage === 'password' ? (
          <>
            <label className={styles.field}>
              이메일
              <input
                className={styles.input}
                type="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                autoComplete="username"
                required
              />
            </label>
            <label className={styles.field}>
              비밀번호
              <input
                className={styles.input}
                type="password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                autoComplete="current-password"
                required
              />
            </label>
          </>
        ) : (
          <CodeField value={code} onChange={setCode} />
        )}
        <FormError error={error} />
        <button className={styles.primary} type="submit" disabled={busy}>
          {stage === 'password' ? '다음' : '로그인'}
        </button>
      </form>
    </main>
  );
}
