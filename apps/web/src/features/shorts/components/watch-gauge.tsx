import { SHORTS_MSG } from '@ohgood/contract/shorts-rules';
import { Coins } from 'lucide-react';
import type { WatchGauge as Gauge } from '../hooks/use-watch-gauge';
import styles from './feed.module.css';

const RADIUS = 20;
const EARNED_HERE = '이 영상은 적립 완료';
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

/** The circular watch-point gauge (docs/rules/points.md#R5, #R6). */
export function WatchGauge({
  gauge,
  loggedIn,
  limitReached,
}: {
  gauge: Gauge;
  loggedIn: boolean;
  limitReached: boolean;
}) {
  const ratio = gauge.earned ? 1 : Math.min(1, gauge.watched / gauge.required);
  // Why the ring does not move, said without a tap: this video paid already, or today's cap is reached.
  const standing = !loggedIn ? null : gauge.earned ? EARNED_HERE : limitReached ? SHORTS_MSG.dailyLimit : null;
  const explain = () => {
    if (!loggedIn) gauge.showMessage(SHORTS_MSG.earnLoginNeeded);
    else if (standing) gauge.showMessage(standing);
  };
  const caption = gauge.message ?? standing;
  return (
    <div className={styles.gaugeWrap}>
      <button
        type="button"
        className={`${styles.gauge} ${gauge.disabled ? styles.gaugeDisabled : ''}`}
        onClick={explain}
        aria-label={
          gauge.earned ? `시청 포인트 게이지: ${EARNED_HERE}` : `시청 포인트 게이지 ${Math.round(ratio * 100)}%`
        }
        data-earned={gauge.earned || undefined}
        data-testid="watch-gauge"
        data-watched={gauge.watched.toFixed(1)}
        data-required={gauge.required}
      >
        <svg className={styles.gaugeRing} width="48" height="48" viewBox="0 0 48 48" aria-hidden>
          <circle cx="24" cy="24" r={RADIUS} className={styles.gaugeTrack} />
          <circle
            cx="24"
            cy="24"
            r={RADIUS}
            className={styles.gaugeFill}
            strokeDasharray={CIRCUMFERENCE}
            strokeDashoffset={CIRCUMFERENCE * (1 - ratio)}
          />
        </svg>
        <Coins size={18} aria-hidden className={styles.gaugeIcon} />
      </button>
      {caption && (
        <p className={styles.gaugeMessage} role="status" data-testid="gauge-caption">
          {caption}
        </p>
      )}
    </div>
  );
}
