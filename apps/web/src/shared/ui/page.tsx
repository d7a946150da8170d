import { MSG } from '@ohgood/contract/messages';
import type { ReactNode } from 'react';
import { Mascot } from './mascot';
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

/** An honest empty screen for a route whose feature has not shipped yet. */
export function ScreenPlaceholder({ title }: { title: string }) {
  return (
    <Page title={title}>
      <div className={styles.placeholder}>
        <Mascot size={72} />
        <p>이 화면은 아직 열리지 않았어요.</p>
        <p>곧 이곳에서 만나요!</p>
      </div>
    </Page>
  );
}

export function LoadingText({ children = '불러오는 중...' }: { children?: ReactNode }) {
  return (
    <p className={styles.status} role="status">
      {children}
    </p>
  );
}

export function ErrorText({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : String(error);
  return (
    <p className={styles.error} role="alert">
      {MSG.genericError(message)}
    </p>
  );
}
