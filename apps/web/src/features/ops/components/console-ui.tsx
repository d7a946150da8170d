import { withParticle } from '@ohgood/contract/particles';
import { ApiError } from '../../../shared/api-client';
import { notify } from '../../../shared/notify';
import type { TwoFactorLook } from '../../../shared/ui/two-factor-forms';
import styles from './ops-console.module.css';

/** The Korean message of a failed console call. */
export const failure = (error: unknown) => (error instanceof ApiError ? error.message : '요청에 실패했습니다.');

/** What Status needs of a console read (a TanStack Query result). */
interface Read {
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** A read's loading and error (with a retry) states; while it reads again, what it showed stays below. */
export function Status({ read }: { read: Read }) {
  if (read.isFetching) return <p role="status">불러오는 중...</p>;
  if (!read.error) return null;
  return (
    <p className={styles.error} role="alert">
      {failure(read.error)}{' '}
      <button type="button" className={styles.linkButton} onClick={() => void read.refetch()}>
        다시 시도
      </button>
    </p>
  );
}

/** 'YYYY-MM-DDTHH:mm…' as 'YYYY-MM-DD HH:mm'. */
export const minute = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/** A purchase's status in Korean. */
export const PAYMENT_STATUS: Record<string, string> = { UNPAID: '미납', PAID: '납부 완료', REFUNDED: '환불' };

/** A merchant's payment request's status in Korean. */
export const REQUEST_STATUS: Record<string, string> = {
  ACTIVE: '결제 대기',
  PAID: '결제 완료',
  EXPIRED: '만료',
  CANCELLED: '취소',
  REFUNDED: '환불',
};

/** The console's look for the shared sign-in and enrolment forms. */
export const consoleLook: TwoFactorLook = {
  form: `${styles.card} ${styles.signIn}`,
  title: '',
  field: styles.field ?? '',
  input: styles.input ?? '',
  button: styles.button ?? '',
  error: styles.error ?? '',
};

/** A form's error line, announced. */
export function FormError({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p className={styles.error} role="alert">
      {error}
    </p>
  );
}

/** Copies a value shown once (a new API key, an enrolment link), with a toast either way. */
export function CopyButton({ value, what }: { value: string; what: string }) {
  return (
    <button
      type="button"
      className={styles.button}
      onClick={() =>
        navigator.clipboard.writeText(value).then(
          () => notify(`${withParticle(what, '을/를')} 복사했어요.`),
          () => notify(`복사하지 못했어요. ${withParticle(what, '을/를')} 직접 선택해 복사해주세요.`),
        )
      }
    >
      복사
    </button>
  );
}

/** Plain rows of text cells, or a line saying there are none. */
export function Rows({ rows, empty }: { rows: Array<{ key: string | number; cells: string[] }>; empty: string }) {
  if (rows.length === 0) return <p className={styles.muted}>{empty}</p>;
  return (
    <table className={styles.table}>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            {row.cells.map((cell, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells are fixed columns
              <td key={i}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Loads the next page of a read by cursor, while there is one. */
export function MoreButton({
  read,
}: {
  read: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
}) {
  if (!read.hasNextPage) return null;
  return (
    <button
      type="button"
      className={styles.secondary}
      disabled={read.isFetchingNextPage}
      onClick={() => void read.fetchNextPage()}
    >
      {read.isFetchingNextPage ? '불러오는 중...' : '더 보기'}
    </button>
  );
}
