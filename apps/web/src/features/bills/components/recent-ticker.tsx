import type { PayThisMonth } from '@ohgood/contract/bills';
import { useState } from 'react';
import { Link } from 'react-router';
import { points, won } from '../../../shared/format';
import { useTicker } from '../use-ticker';
import styles from './this-month-card.module.css';

/** The ticker rotates every 3 s. */
export const TICKER_MS = 3000;

export const shortDate = (iso: string) => `${Number(iso.slice(5, 7))}.${Number(iso.slice(8, 10))}`;

/**
 * This month's items one at a time, the next every TICKER_MS unless hovered or focused. A turn renders this
 * alone (its own state, not the card's) and lays out only its fixed-size box (`contain` in the stylesheet).
 */
export function RecentTicker({ items }: { items: PayThisMonth['items'] }) {
  const [hovered, setHovered] = useState(false);
  const current = items[useTicker(items.length, TICKER_MS, hovered)];
  return (
    <Link
      to="/payment/details"
      className={styles.ticker}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setHovered(true)}
      onBlur={() => setHovered(false)}
      data-testid="ticker"
    >
      {current ? (
        <p key={current.id} className={styles.tickerItem} data-testid="ticker-item">
          <span className={styles.tickerDate}>{shortDate(current.date)}</span>
          <span className={styles.tickerMerchant}>{current.merchant}</span>
          <span className={styles.tickerAmount}>{won(current.amount)}</span>
          {current.point > 0 ? <span className={styles.tickerPoint}>+{points(current.point)}</span> : null}
        </p>
      ) : null}
    </Link>
  );
}
