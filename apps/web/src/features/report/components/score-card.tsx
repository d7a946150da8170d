import type { ScoreFactor, ScoreReport } from '@ohgood/contract/report';
import { useIdleReveal } from '../../../shared/use-idle-reveal';
import { useScore } from '../api/report-api';
import styles from '../report.module.css';
import { splitFactors } from '../report-format';
import { CardError, Skeleton } from './card-state';
import { ScoreGauge } from './score-gauge';

/** How many factors each list shows. */
const TOP_FACTORS = 3;

/**
 * The card's body (px, at 390 px) while it loads and until its reasons render: it reaches past the fold of a
 * phone's screen, so neither the answer nor the reasons move anything on screen under the card.
 */
const BODY_HEIGHT = 640;

function FactorList({ factors, kind }: { factors: ScoreFactor[]; kind: 'helps' | 'hurts' }) {
  return (
    <ol className={styles.factors} data-testid={kind === 'hurts' ? 'score-factors' : 'score-helps'}>
      {factors.map((factor) => (
        <li key={factor.key}>
          <span className={styles.factorLabel}>{factor.label}</span>
          {kind === 'hurts' ? (
            <span className={styles.factorPoints}>−{Math.round(factor.contribution)}점</span>
          ) : (
            <span className={styles.factorGood}>좋아요</span>
          )}
          <span className={styles.factorDetail}>{factor.detail}</span>
        </li>
      ))}
    </ol>
  );
}

/** What keeps the score up and what takes it down, in whole points (report.md#D1). */
function Reasons({ report }: { report: ScoreReport }) {
  const { helps, hurts } = splitFactors(report.factors);
  return (
    <>
      {helps.length > 0 ? (
        <>
          <h3 className={styles.subTitle}>점수를 지켜 준 요인</h3>
          <FactorList factors={helps.slice(0, TOP_FACTORS)} kind="helps" />
        </>
      ) : null}
      {hurts.length === 0 ? (
        <p className={styles.muted}>깎인 점수가 없어요. 완벽해요!</p>
      ) : (
        <>
          <h3 className={styles.subTitle}>점수를 깎은 요인</h3>
          <FactorList factors={hurts.slice(0, TOP_FACTORS)} kind="hurts" />
          <h3 className={styles.subTitle}>점수를 올리려면</h3>
          <ul className={styles.tips}>
            {hurts.slice(0, TOP_FACTORS).map((factor) => (
              <li key={factor.key}>{factor.tip}</li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

/**
 * The OhGood score: gauge, band, our one-liner and the reasons behind it (report.md#D1). The gauge and the
 * one-liner come with the answer (the page's largest paint); the reasons, most of them past the fold, in the
 * next idle moment (useIdleReveal), so laying out their text is a task of its own.
 */
export function ScoreCard() {
  const score = useScore();
  const reasonsShown = useIdleReveal(score.isSuccess);
  return (
    <section
      className={styles.card}
      aria-labelledby="score-title"
      aria-busy={score.isPending || (score.isSuccess && !reasonsShown)}
    >
      <h2 id="score-title" className={styles.cardTitle}>
        오굿 점수
      </h2>
      {score.isPending ? (
        <>
          <span className="visually-hidden" role="status">
            오굿 점수를 불러오는 중...
          </span>
          <Skeleton tall height={BODY_HEIGHT} />
        </>
      ) : score.isError ? (
        <>
          <ScoreGauge score={null} />
          <CardError onRetry={() => void score.refetch()} retrying={score.isFetching} />
        </>
      ) : (
        <div style={reasonsShown ? undefined : { minHeight: BODY_HEIGHT }}>
          <ScoreGauge score={score.data.ohgoodScore} band={score.data.band} />
          <p className={styles.scoreMessage} data-testid="score-message">
            {score.data.message}
          </p>
          {reasonsShown ? <Reasons report={score.data} /> : <Skeleton lines={3} />}
        </div>
      )}
    </section>
  );
}
