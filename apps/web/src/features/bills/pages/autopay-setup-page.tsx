import { AUTOPAY_CONSENT, type AutopaySetting, VERIFICATION_RULES } from '@ohgood/contract/autopay';
import { bankName } from '@ohgood/contract/bank';
import { kstTime } from '@ohgood/contract/kst';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../../shared/api-client';
import { notify } from '../../../shared/notify';
import buttons from '../../../shared/ui/button.module.css';
import { ErrorText, LoadingText, Page } from '../../../shared/ui/page';
import { useAutopay, useConfirmCode, useConsentToAutopay, useSendCode } from '../api/autopay-api';
import styles from './autopay-setup-page.module.css';

const failureText = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.message ? error.message : fallback;

/**
 * /payment/autopay: turning autopay on, the Korean way (docs/rules/bills-and-grades.md#B21–#B23): first the
 * consent to debit (출금 동의) to the words shown, then 1원 인증 — the bank deposits 1원 whose depositor name
 * carries a code, and the customer types the code. Reached from the autopay card on /payment and /mypage.
 */
export default function AutopaySetupPage() {
  const setting = useAutopay();
  return (
    <Page title="자동 납부 설정">
      {setting.data ? (
        <Setup setting={setting.data} />
      ) : setting.isError ? (
        <ErrorText error={setting.error} onRetry={() => void setting.refetch()} />
      ) : (
        <LoadingText />
      )}
    </Page>
  );
}

function Setup({ setting }: { setting: AutopaySetting }) {
  const accountLine = `${bankName(setting.accountName)} ${setting.account}`;
  if (setting.state === 'on') {
    return (
      <section className={styles.card} aria-labelledby="autopay-done">
        <h2 id="autopay-done">자동 납부가 켜져 있어요</h2>
        <p>납부일에 {accountLine}에서 출금해요.</p>
        <Link className={`${buttons.primary} ${buttons.block}`} to="/payment">
          납부하기로 돌아가기
        </Link>
      </section>
    );
  }
  const step = setting.state === 'off' || setting.pendingReason === 'consent' ? 1 : 2;
  return (
    <>
      <ol className={styles.steps} aria-label="자동 납부 켜기 단계">
        <li aria-current={step === 1 ? 'step' : undefined}>1. 출금 동의</li>
        <li aria-current={step === 2 ? 'step' : undefined}>2. 계좌 1원 인증</li>
      </ol>
      {step === 1 ? <Consent accountLine={accountLine} /> : <Verify setting={setting} accountLine={accountLine} />}
    </>
  );
}

function Consent({ accountLine }: { accountLine: string }) {
  const [agreed, setAgreed] = useState(false);
  const consent = useConsentToAutopay();
  return (
    <section className={styles.card} aria-labelledby="consent-title">
      <h2 id="consent-title">{AUTOPAY_CONSENT.title}</h2>
      <p className={styles.account}>출금 계좌: {accountLine}</p>
      <p className={styles.terms}>{AUTOPAY_CONSENT.text}</p>
      <label className={styles.check}>
        <input type="checkbox" checked={agreed} onChange={(event) => setAgreed(event.target.checked)} />위 내용을
        확인했고 출금에 동의해요
      </label>
      <button
        type="button"
        className={`${buttons.primary} ${buttons.block}`}
        disabled={!agreed || consent.isPending}
        onClick={() =>
          consent.mutate(undefined, {
            onSuccess: (body) => notify(body.message),
            onError: (error) => notify(failureText(error, '동의를 저장하지 못했어요. 다시 시도해 주세요.')),
          })
        }
      >
        동의하고 계속
      </button>
    </section>
  );
}

function Verify({ setting, accountLine }: { setting: AutopaySetting; accountLine: string }) {
  const send = useSendCode();
  const confirm = useConfirmCode();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const inputId = useId();
  const open = setting.verification;
  const sendCode = () => {
    setProblem(null);
    send.mutate(undefined, {
      onSuccess: (body) => {
        setCode('');
        notify(body.message);
      },
      onError: (error) => setProblem(failureText(error, '1원을 보내지 못했어요. 잠시 후 다시 시도해 주세요.')),
    });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    confirm.mutate(code, {
      onSuccess: (body) => notify(body.message),
      onError: (error) => setProblem(failureText(error, '확인하지 못했어요. 다시 시도해 주세요.')),
    });
  };
  const complete = new RegExp(`^[0-9]{${VERIFICATION_RULES.codeDigits}}$`).test(code);
  return (
    <section className={styles.card} aria-labelledby="verify-title">
      <h2 id="verify-title">계좌 1원 인증</h2>
      <p>
        {accountLine} 계좌로 1원을 보내 드려요. 은행 앱의 입금 내역에서 입금자명 &lsquo;
        {VERIFICATION_RULES.depositorPrefix}&rsquo; 뒤의 숫자 {VERIFICATION_RULES.codeDigits}자리를 확인해 입력해
        주세요. 인증을 마치기 전까지는 자동으로 출금하지 않아요.
      </p>
      {open ? (
        <form className={styles.form} onSubmit={submit}>
          <label htmlFor={inputId}>인증 코드 {VERIFICATION_RULES.codeDigits}자리</label>
          <input
            id={inputId}
            className={styles.code}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={VERIFICATION_RULES.codeDigits}
            value={code}
            aria-describedby={`${inputId}-hint`}
            aria-invalid={problem !== null}
            onChange={(event) => setCode(event.target.value.replace(/[^0-9]/g, ''))}
          />
          <small id={`${inputId}-hint`} className={styles.hint}>
            {kstTime(open.expiresAt)}까지 입력 · 남은 입력 {open.triesLeft}번
          </small>
          <button
            type="submit"
            className={`${buttons.primary} ${buttons.block}`}
            disabled={!complete || confirm.isPending}
          >
            인증하기
          </button>
        </form>
      ) : null}
      {problem ? (
        <p className={styles.problem} role="alert">
          {problem}
        </p>
      ) : null}
      <button
        type="button"
        className={`${open ? buttons.ghost : buttons.primary} ${buttons.block}`}
        disabled={send.isPending}
        onClick={sendCode}
      >
        {open ? '새 코드 받기' : '1원 보내기'}
      </button>
    </section>
  );
}
