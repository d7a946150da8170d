import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { notify } from '../../../shared/notify';
import { FormError, failure } from './console-ui';
import styles from './ops-console.module.css';

const REASON_MIN = 2;

export interface ActionButtonProps {
  /** The button's text, and the dialog's title unless `title` says otherwise. */
  label: string;
  title?: string;
  variant?: 'button' | 'secondary' | 'danger' | 'linkButton';
  /** Inputs the action needs besides the reason (a new limit, a role), controlled by the caller. */
  fields?: ReactNode;
  /** Checks `fields`: a Korean message for a bad input, or null. */
  check?: () => string | null;
  /** What will change, shown on the confirmation step (e.g. '한도 100,000원 → 50,000원'). */
  summary?: string;
  /** Does the action (a console action refetches what it changed); the reason is the operator's, trimmed. */
  run: (reason: string) => Promise<unknown>;
}

/**
 * A console action (docs/rules/operations.md#O5–O8): the button opens a dialog that asks for the reason (every
 * action needs one, the audit trail keeps it), then a confirmation step that repeats what will happen and why;
 * only then does it call the server. Escape or '취소' backs out at either step.
 */
export function ActionButton({ label, title = label, variant = 'secondary', ...action }: ActionButtonProps) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button ref={opener} type="button" className={styles[variant]} onClick={() => setOpen(true)}>
        {label}
      </button>
      {open && (
        <ActionDialog
          title={title}
          {...action}
          close={() => {
            setOpen(false);
            opener.current?.focus();
          }}
        />
      )}
    </>
  );
}

function ActionDialog({
  title,
  fields,
  check,
  summary,
  run,
  close,
}: Omit<ActionButtonProps, 'label' | 'variant'> & { title: string; close: () => void }) {
  const [reason, setReason] = useState('');
  const [step, setStep] = useState<'reason' | 'confirm'>('reason');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    (step === 'reason' ? reasonRef : confirmRef).current?.focus();
  }, [step]);

  function next() {
    const bad = check?.() ?? (reason.trim().length < REASON_MIN ? `사유를 ${REASON_MIN}자 이상 입력해주세요.` : null);
    setError(bad);
    if (!bad) setStep('confirm');
  }

  async function execute() {
    setBusy(true);
    setError(null);
    try {
      await run(reason.trim());
      notify(`${title} 완료`);
      close();
    } catch (e) {
      setError(failure(e));
      setBusy(false);
    }
  }

  return (
    <div className={styles.backdrop}>
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className={styles.dialog}
        onKeyDown={(e) => {
          if (e.key === 'Escape') close();
        }}
      >
        <h2 id={titleId}>{title}</h2>
        {step === 'reason' ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              next();
            }}
          >
            {fields}
            <label className={styles.field}>
              사유 (필수, 감사 기록에 남아요)
              <textarea
                ref={reasonRef}
                className={styles.textarea}
                value={reason}
                maxLength={500}
                aria-invalid={error !== null}
                onChange={(e) => setReason(e.target.value)}
              />
            </label>
            <FormError error={error} />
            <div className={styles.row}>
              <button type="submit" className={styles.button}>
                다음
              </button>
              <button type="button" className={styles.secondary} onClick={close}>
                취소
              </button>
            </div>
          </form>
        ) : (
          <>
            <p>정말 실행할까요?</p>
            {summary && <p className={styles.summary}>{summary}</p>}
            <p>사유: {reason.trim()}</p>
            <FormError error={error} />
            <div className={styles.row}>
              <button
                ref={confirmRef}
                type="button"
                className={styles.danger}
                disabled={busy}
                onClick={() => void execute()}
              >
                {busy ? '처리 중...' : '실행'}
              </button>
              <button type="button" className={styles.secondary} disabled={busy} onClick={() => setStep('reason')}>
                돌아가기
              </button>
              <button type="button" className={styles.secondary} disabled={busy} onClick={close}>
                취소
              </button>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
