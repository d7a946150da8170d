import styles from '../report.module.css';
import { gaugePercent } from '../report-format';

/** A half-circle arc filled score / 1000; '?' when the score could not be loaded. */
export function ScoreGauge({ score, band }: { score: number | null; band?: string }) {
  const percent = score === null ? 0 : gaugePercent(score);
  const arc = 'M 20 110 A 90 90 0 0 1 200 110';
  return (
    <svg
      className={styles.gauge}
      viewBox="0 0 220 124"
      role="img"
      aria-label={score === null ? '오굿 점수를 불러오지 못했어요' : `오굿 점수 1000점 만점에 ${score}점, ${band}등급`}
      data-testid="score-gauge"
    >
      <path d={arc} pathLength={100} className={styles.gaugeTrack} />
      {score === null ? null : (
        <path
          d={arc}
          pathLength={100}
          className={styles.gaugeFill}
          strokeDasharray={`${percent} 100`}
          data-percent={percent.toFixed(1)}
        />
      )}
      <text x="110" y="92" textAnchor="middle" className={styles.gaugeScore}>
        {score ?? '?'}
      </text>
      <text x="110" y="116" textAnchor="middle" className={styles.gaugeMax}>
        {score === null ? '' : `/ 1000 · ${band}등급`}
      </text>
    </svg>
  );
}
