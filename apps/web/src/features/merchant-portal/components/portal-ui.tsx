import { kstDate, kstTime } from '@ohgood/contract/kst';
import type { ReactNode } from 'react';
import { ApiError } from '../../../shared/api-client';
import { notify } from '../../../shared/notify';
import type { TwoFactorLook } from '../../../shared/ui/two-factor-forms';
import styles from './portal.module.css';

/** The Korean message of a failed portal call. */
export const failure = (error: unknown) =>
  error instanceof ApiError ? error.message : '요청에 실패했습니다. 잠시 후 다시 시도해주세요.';

/** The portal's loading line, announced: a screen's code or its data on the way. */
export function Loading() {
  return (
    <p className={styles.muted} role="status">
      불러오는 중...
    </p>
  );
}

/** What ReadState needs of a read (a TanStack Query result). */
interface Read {
  isPending: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * A read's three states before its data: loading, an error with a retry, or empty (`empty` says what is not
 * there yet). Renders `children` once there is something to show.
 */
export function ReadState({
  read,
  isEmpty,
  empty,
  children,
}: {
  read: Read;
  isEmpty: boolean;
  empty: string;
  children: ReactNode;
}) {
  if (read.isPending) return <Loading />;
  if (read.error) {
    return (
      <div className={styles.alert} role="alert">
        <p>{failure(read.error)}</p>
        <button type="button" className={styles.secondary} onClick={() => void read.refetch()}>
          다시 시도
        </button>
      </div>
    );
  }
  if (isEmpty) return <p className={styles.empty}>{empty}</p>;
  return <>{children}</>;
}

/** A form's error line, announced. */
export function FormError({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p className={styles.formError} role="alert">
      {error}
    </p>
  );
}

/** The portal's look for the shared sign-in and enrolment forms. */
export const portalLook: TwoFactorLook = {
  form: styles.form ?? '',
  title: styles.brand ?? '',
  field: styles.field ?? '',
  input: styles.input ?? '',
  button: styles.primary ?? '',
  error: styles.formError ?? '',
};

/** An ISO instant as KST 'YYYY-MM-DD HH:mm'. */
export const kstMinute = (iso: string) => `${kstDate(iso)} ${kstTime(iso)}`;

/**
 * A secret the server answers once (a new API key, a webhook signing secret): shown here with a copy button
 * until the person says they kept it, since it cannot be shown again.
 */
export function ShownOnce({
  title,
  note,
  value,
  testId,
  onDone,
}: {
  title: string;
  note: string;
  value: string;
  testId: string;
  onDone: () => void;
}) {
  return (
    <div className={`${styles.card} ${styles.secret}`} role="status">
      <p>
        <strong>{title}</strong> — {note}
      </p>
      <p className={styles.mono} data-testid={testId}>
        {value}
      </p>
      <div className={styles.row}>
        <button
          type="button"
          className={styles.secondary}
          onClick={() =>
            navigator.clipboard.writeText(value).then(
              () => notify('복사했어요.'),
              () => notify('복사하지 못했어요. 직접 선택해 복사해주세요.'),
            )
          }
        >
          복사
        </button>
        <button type="button" className={styles.primary} onClick={onDone}>
          보관했어요
        </button>
      </div>
    </div>
  );
}
