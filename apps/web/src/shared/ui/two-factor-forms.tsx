import { type FormEvent, type Ref, useEffect, useRef, useState } from 'react';

/*
 * The forms of a password + TOTP sign-in, shared by the operator console and the merchant portal: each passes
 * its own calls and its own look (class names), so the steps, labels and checks are written once.
 */

/** Class names of the screen the forms sit in. */
export interface TwoFactorLook {
  form: string;
  title: string;
  field: string;
  input: string;
  button: string;
  error: string;
}

/** The authenticator app's 6-digit code: digits only. */
export function CodeField({
  value,
  onChange,
  look,
  inputRef,
  invalid = false,
}: {
  value: string;
  onChange: (code: string) => void;
  look: TwoFactorLook;
  inputRef?: Ref<HTMLInputElement>;
  /** The last code was refused (the error line says why). */
  invalid?: boolean;
}) {
  return (
    <label className={look.field}>
      인증 앱의 6자리 코드
      <input
        ref={inputRef}
        className={look.input}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={value}
        aria-invalid={invalid || undefined}
        onChange={(e) => onChange(e.target.value.replace(/\D/g, ''))}
      />
    </label>
  );
}

function ErrorLine({ error, look }: { error: string | null; look: TwoFactorLook }) {
  if (!error) return null;
  return (
    <p className={look.error} role="alert">
      {error}
    </p>
  );
}

/** Runs a step, keeping its failure as the line to show. */
function useStep(failure: (error: unknown) => string) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (step: () => Promise<void>) => {
    setError(null);
    setBusy(true);
    try {
      await step();
    } catch (e) {
      setError(failure(e));
    } finally {
      setBusy(false);
    }
  };
  return { error, setError, busy, run };
}

/** Step one, the password; step two, the authenticator's code. */
export function TwoFactorSignIn({
  title,
  look,
  password: submitPassword,
  code: submitCode,
  failure,
}: {
  title: string;
  look: TwoFactorLook;
  password: (email: string, password: string) => Promise<void>;
  code: (code: string) => Promise<void>;
  failure: (error: unknown) => string;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [stage, setStage] = useState<'password' | 'totp'>('password');
  const codeInput = useRef<HTMLInputElement>(null);
  const step = useStep(failure);

  // The code step appears after the password: its field is what the operator types next.
  useEffect(() => {
    if (stage === 'totp') codeInput.current?.focus();
  }, [stage]);

  /**
   * A refused code (wrong, spent, or too many tries) keeps the operator on this step: the pending session is
   * still theirs, so the field is emptied and focused for the authenticator's next code.
   */
  async function tryCode() {
    try {
      await submitCode(code);
    } catch (error) {
      setCode('');
      codeInput.current?.focus();
      throw error;
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void step.run(async () => {
      if (stage === 'totp') return tryCode();
      await submitPassword(email, password);
      setStage('totp');
    });
  }

  return (
    <form className={look.form} onSubmit={submit}>
      <h1 className={look.title}>{title}</h1>
      {stage === 'password' ? (
        <>
          <label className={look.field}>
            이메일
            <input
              className={look.input}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              autoComplete="username"
            />
          </label>
          <label className={look.field}>
            비밀번호
            <input
              className={look.input}
              type="password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              autoComplete="current-password"
            />
          </label>
        </>
      ) : (
        <CodeField value={code} onChange={setCode} look={look} inputRef={codeInput} invalid={step.error !== null} />
      )}
      <ErrorLine error={step.error} look={look} />
      <button className={look.button} type="submit" disabled={step.busy}>
        {stage === 'password' ? '다음' : '로그인'}
      </button>
    </form>
  );
}

/** A one-time enrolment link's form: scan the QR (or type the secret), set a password, confirm with a code. */
export function EnrolmentForm({
  look,
  who,
  qrSvg,
  secret,
  enrol,
  failure,
}: {
  look: TwoFactorLook;
  who: string;
  qrSvg: string;
  secret: string;
  enrol: (password: string, code: string) => Promise<void>;
  failure: (error: unknown) => string;
}) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const step = useStep(failure);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (password.length < 12) return step.setError('비밀번호는 12자 이상으로 정해주세요.');
    void step.run(() => enrol(password, code));
  }

  return (
    <form className={look.form} onSubmit={submit}>
      <p>{who}</p>
      <img
        src={`data:image/svg+xml;utf8,${encodeURIComponent(qrSvg)}`}
        alt="인증 앱으로 스캔할 OTP QR 코드"
        width={200}
        height={200}
      />
      <p>
        스캔할 수 없으면 이 키를 입력하세요: <span data-testid="totp-secret">{secret}</span>
      </p>
      <label className={look.field}>
        새 비밀번호 (12자 이상)
        <input
          className={look.input}
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      <CodeField value={code} onChange={setCode} look={look} />
      <ErrorLine error={step.error} look={look} />
      <button className={look.button} type="submit" disabled={step.busy}>
        등록하기
      </button>
    </form>
  );
}
