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

/**
 * Grey placeholder blocks while a card loads; screen readers hear one "loading" instead. `height` reserves
 * about the loaded card's height (at 390 px), so the cards below do not jump when it arrives.
 */
export function Skeleton({ lines = 3, tall = false, height }: { lines?: number; tall?: boolean; height?: number }) {
  return (
    <div className={styles.skeleton} style={height ? { minHeight: height } : undefined} aria-hidden="true">
      {tall ? <span className={styles.skeletonBlock} /> : null}
      {Array.from({ length: lines }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed decorative placeholders
        <span key={i} className={styles.skeletonLine} style={{ width: `${90 - i * 18}%` }} />
      ))}
    </div>
  );
}
