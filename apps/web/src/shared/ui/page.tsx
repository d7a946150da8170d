import { RotateCw } from 'lucide-react';
import { type ComponentType, type LazyExoticComponent, lazy, type ReactNode, useEffect } from 'react';
import { ApiError } from '../api-client';
import { loadErrorText } from '../load-error';
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
 * A page's place before its data: blank cards at the heights of the loaded page's cards (px, top to bottom),
 * after an optional line of text (`lead`, e.g. a greeting), so the first screen has the page's shape and
 * nothing jumps when the data comes. Screen readers hear `label` once.
 */
export function CardsSkeleton({ label, cards, lead }: { label: string; cards: readonly number[]; lead?: boolean }) {
  return (
    <div className={styles.cardsSkeleton} role="status" aria-busy="true" data-testid="page-skeleton">
      <span className="visually-hidden">{label}</span>
      {lead ? <span className={styles.skeletonLead} aria-hidden /> : null}
      {cards.map((height, card) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed decorative placeholders
        <span key={card} className={styles.cardPlaceholder} style={{ height }} aria-hidden />
      ))}
    </div>
  );
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

/** A reload fetches the code again: a browser keeps a failed module's answer for the page's lifetime. */
export const reloadPage = () => location.reload();

/**
 * A part of a screen whose code loads on its own (React.lazy), for a lazily loaded chunk to use. If that code
 * does not arrive (a dropped connection), the part's own place shows the failure in Korean (`ErrorText`) with a
 * retry that loads the page again, and the rest of the screen stays. The router's boundary would take the whole
 * page's place, and a lazily loaded chunk that imports the boundary costs the first load (ADR 0264). Here, not
 * in a module of its own: as its own module it became a chunk of its own in each route that uses it (+0.2 KB
 * on `/payment`'s, over that budget).
 */
export function lazyPart<P extends object>(
  load: () => Promise<ComponentType<P>>,
): LazyExoticComponent<ComponentType<P>> {
  return lazy<ComponentType<P>>(() =>
    load().then(
      (part) => ({ default: part }),
      (error: unknown) => ({ default: () => <ErrorText error={error} onRetry={reloadPage} /> }),
    ),
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

/*
 * The first screens of the signed-in pages people open most, before their data. The same shape stands from
 * the first paint to the data: the guard shows it while the session is read (which is what the server's
 * prerendered HTML of these pages holds), the router while the page's code loads, the page while its data
 * loads. Heights are the loaded cards' at 390 px wide. (Kept in this module: as a module of their own they
 * made the build split the first load into more chunks, 1.2 KB gzip heavier.)
 */
export function PaymentSkeleton() {
  return (
    <Page title="납부하기">
      {/* Available amount, autopay, the next two statements. */}
      <CardsSkeleton label="납부 정보를 불러오는 중..." cards={[155, 192, 139, 139]} />
    </Page>
  );
}

/** My page's autopay and points cards, which come in a step after the cards above them (MypageLowerSkeleton). */
const MYPAGE_LOWER_CARDS = [213, 113] as const;

export function MypageSkeleton() {
  return (
    <Page title="마이페이지" hideTitle>
      {/* The greeting, then grade, linked account, autopay and points. */}
      <CardsSkeleton label="내 정보를 불러오는 중..." lead cards={[192, 117, ...MYPAGE_LOWER_CARDS]} />
    </Page>
  );
}

/** My page's lower cards (autopay, points) for the moment between the page's top cards and them. */
export function MypageLowerSkeleton() {
  return <CardsSkeleton label="내 정보를 불러오는 중..." cards={MYPAGE_LOWER_CARDS} />;
}

/** The skeleton of each guarded page that has one, by its path. */
export const SIGNED_IN_SKELETONS: Readonly<Record<string, ComponentType>> = {
  '/payment': PaymentSkeleton,
  '/mypage': MypageSkeleton,
};
