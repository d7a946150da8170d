import { type ReactNode, useEffect, useState } from 'react';
import { runWhenIdle } from '../../../shared/idle-queue';
import styles from '../report.module.css';

/**
 * A card that starts below the fold on a phone: until the browser's first idle moment for it (one card per
 * moment, see runWhenIdle), an empty card of its loading height (`height`, measured at 390 px) that
 * nothing reads out; then the card itself, which then asks for its data. Its title, buttons and skeleton
 * are so rendered and laid out in a task of their own, not in the long one that shows the first screen
 * (laying out Hangul text in new sizes and weights is the costly part of this page).
 */
export function BelowFold({ height, children }: { height: number; children: ReactNode }) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => runWhenIdle(() => setMounted(true)), []);
  return mounted ? children : <div className={styles.card} style={{ minHeight: height }} aria-hidden="true" />;
}
