import { isValidEmail, PASSWORD_CHARS } from '@ohgood/contract/auth-rules';
import { MSG } from '@ohgood/contract/messages';
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../../shared/api-client';
import { setToken } from '../../../shared/auth-token';
import { notify } from '../../../shared/notify';
import { safeNext } from '../../../shared/return-to';
import buttons from '../../../shared/ui/button.module.css';
import { Mascot } from '../../../shared/ui/mascot';
import { useLogin } from '../api/auth-api';
import styles from './auth-form.module.css';
import { TextField } from './text-field';

function loginErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 429) return error.message;
  if (error instanceof ApiError && (error.status === 401 || error.status === 400)) return MSG.loginFailed;
  return MSG.loginError;
}

export default function LoginPage() {
  const navigate = useNavigate();
  // Back to the guarded page that sent the user here, with its query (a QR deep link keeps its code).
  const next = safeNext(useSearchParams()[0].get('next'));
  // Straight after sign-up the new e-mail is filled in (router state, never the password).
  const registered = (useLocation().state as { emailId?: string } | null)?.emailId ?? '';
  const [emailId, setEmailId] = useState(registered);
  const [pwd, setPwd] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const { mutateAsync: login } = useLogin();
  const [error, setError] = useState<string | null>(null);

  // The same pattern styling as sign-up, but nothing is blocked here.
  const emailInvalid = emailId !== '' && !isValidEmail(emailId);
  const pwdInvalid = pwd !== '' && !PASSWORD_CHARS.test(pwd);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitting(true);
    setError(null);
    try {
      const { accessToken } = await login({ emailId, pwd });
      setToken(accessToken);
      notify(MSG.loginSuccess);
      navigate(next, { replace: true });
    } catch (failure) {
      const message = loginErrorMessage(failure);
      // Shown once, inline beside the form (a toast would repeat it).
      setError(message);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className={styles.wrap}>
      <div className={styles.hero}>
        <Mascot size={72} />
        <h1>로그인</h1>
        <p>지금 사고, 다음 달에 납부하세요.</p>
      </div>
      <form className={styles.form} onSubmit={submit} noValidate>
        <TextField
          id="login-email"
          label="이메일"
          type="email"
          autoComplete="username"
          inputMode="email"
          value={emailId}
          onChange={(e) => setEmailId(e.target.value)}
          invalid={emailInvalid}
          errorHint={emailInvalid ? '이메일 형식을 확인해주세요.' : undefined}
        />
        <TextField
          id="login-pwd"
          label="비밀번호"
          type="password"
          autoComplete="current-password"
          autoFocus={registered !== ''}
          value={pwd}
          onChange={(e) => setPwd(e.target.value)}
          invalid={pwdInvalid}
          errorHint={pwdInvalid ? '영문, 숫자, !@#만 사용할 수 있어요.' : undefined}
        />
        {error && (
          <p className={styles.error} role="alert">
            {error}
          </p>
        )}
        <button type="submit" className={`${buttons.primary} ${buttons.block}`} disabled={submitting}>
          {submitting ? '로그인 중...' : '로그인'}
        </button>
      </form>
      <p className={styles.footer}>
        아직 회원이 아니신가요? <Link to="/register">회원가입</Link>
      </p>
      <p className={styles.footer}>체험용 계정: demo@ohgood.kr / ohgood123!</p>
    </div>
  );
}
