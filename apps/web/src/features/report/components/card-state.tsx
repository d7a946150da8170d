import { REPORT_MSG } from '@ohgood/contract/report-rules';
import { RotateCw } from 'lucide-react';
import styles from '../report.module.css';

/** A card's own failure: the failure text and a retry that refetches only this card. */
export function CardError({ onRetry, retrying }: { onRetry: () => void; retrying?: boolean }) {
  return (
    <div className={styles.cardError} role="alert">
      <p>{REPORT_MSG.loadFailed}</p>
      <button type="button" className={styles.retry} onClick={onRetry} disabled={retrying}>
        <RotateCw size={16} aria-hidden />
        {REPORT_MSG.retry}
      </button>
    </div>
  );
}

/** Grey placeholder blocks while a card loads; screen readers hear one "loading" instead. */
export function Skeleton({ lines = 3, tall = false }: { lines?: number; tall?: boolean }) {
  return (
    <div className={styles.skeleton} aria-hidden="true">
      {tall ? <span className={styles.skeletonBlock} /> : null}
      {Array.from({ length: lines }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed decorative placeholders
        <span key={i} className={styles.skeletonLine} style={{ width: `${90 - i * 18}%` }} />
      ))}
    </div>
  );
}
