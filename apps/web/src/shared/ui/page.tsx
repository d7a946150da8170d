import { MSG } from '@ohgood/contract/messages';
import { RotateCw } from 'lucide-react';
import { type ReactNode, useEffect } from 'react';
import { ApiError } from '../api-client';
import buttons from './button.module.css';
import styles from './page.module.css';

export function Page({ title, children, hideTitle }: { title: string; children?: ReactNode; hideTitle?: boolean }) {
  return (
    <section className={styles.page} aria-labelledby="page-title">
      <h1 id="page-title" className={hideTitle ? 'visually-hidden' : styles.title}>
        {title}
      </h1>
      {children}
    </section>
  );
}

export function LoadingText({ children = '불러오는 중...' }: { children?: ReactNode }) {
  return (
    <p className={styles.status} role="status">
      {children}
    </p>
  );
}

/**
 * A list's place while it loads: grey rows shaped like its items (a title, a body, a time), so the screen
 * has its shape at once instead of a bare '불러오는 중...'. Screen readers hear `label` once.
 */
export function ListSkeleton({ label, rows = 4 }: { label: string; rows?: number }) {
  return (
    <div className={styles.listSkeleton} role="status" aria-busy="true" data-testid="list-skeleton">
      <span className="visually-hidden">{label}</span>
      <span className={styles.skeletonHeading} aria-hidden />
      {Array.from({ length: rows }, (_, row) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed decorative placeholders
        <span key={row} className={styles.skeletonRow} aria-hidden>
          <span className={styles.skeletonLine} style={{ width: `${55 - (row % 2) * 15}%` }} />
          <span className={styles.skeletonLine} style={{ width: `${90 - (row % 3) * 10}%` }} />
          <span className={styles.skeletonLine} style={{ width: '22%' }} />
        </span>
      ))}
    </div>
  );
}

/**
 * The reason in '오류가 발생했습니다: {reason}' (a list or page that fails to load), said once: a network failure names the
 * network instead of repeating '오류가 발생했습니다', and '다시 시도해주세요' is left to the retry button.
 */
export function loadErrorReason(error: unknown): string {
  if (error instanceof ApiError && error.code === 'SERVICE_UNAVAILABLE') return MSG.serviceUnavailable;
  if (error instanceof ApiError && error.code === 'NETWORK_ERROR') return '네트워크 연결을 확인해주세요.';
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*다시 시도해\s?주세요\.?$/, '').trim() || MSG.requestFailed;
}

/** The line a failed load shows: a brief outage gets one calm line alone, anything else names its reason. */
export function loadErrorText(error: unknown): string {
  if (error instanceof ApiError && error.code === 'SERVICE_UNAVAILABLE') return MSG.serviceUnavailable;
  return MSG.genericError(loadErrorReason(error));
}

/** How long a screen waits before loading again by itself after an outage, whatever Retry-After says. */
const OUTAGE_RELOAD_MS = { fallback: 5_000, max: 10_000 };

/**
 * A brief outage (503 SERVICE_UNAVAILABLE: the database restarting, a failover) ends by itself: the screen
 * loads again after the server's Retry-After, and again after each further 503, until it succeeds. The
 * user need not notice the button. Other failures wait for the button.
 */
function useReloadAfterOutage(error: unknown, onRetry: () => void): void {
  useEffect(() => {
    if (!(error instanceof ApiError && error.code === 'SERVICE_UNAVAILABLE')) return;
    const wait = Math.min(error.retryAfterMs ?? OUTAGE_RELOAD_MS.fallback, OUTAGE_RELOAD_MS.max);
    const timer = setTimeout(onRetry, wait);
    return () => clearTimeout(timer);
  }, [error, onRetry]);
}

/** A load error: the failure text once and a '다시 시도' button; after an outage it also reloads by itself. */
export function ErrorText({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  useReloadAfterOutage(error, onRetry);
  return (
    <div className={styles.errorBox} role="alert">
      <p className={styles.error}>{loadErrorText(error)}</p>
      <RetryButton onRetry={onRetry} />
    </div>
  );
}

export function RetryButton({ onRetry }: { onRetry: () => void }) {
  return (
    <button type="button" className={buttons.secondary} onClick={onRetry}>
      <RotateCw size={18} aria-hidden />
      다시 시도
    </button>
  );
}

/**
 * Holds a card's place while its code loads (a lazy chunk), at about the loaded card's height, so the page
 * does not jump when it arrives.
 */
export function CardPlaceholder({ height, label }: { height: string; label: string }) {
  return (
    <section className={styles.cardPlaceholder} style={{ minHeight: height }} aria-busy="true" aria-label={label} />
  );
}
