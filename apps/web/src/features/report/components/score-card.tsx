import type { ScoreReport } from '@ohgood/contract/report';
import { useScore } from '../api/report-api';
import styles from '../report.module.css';
import { CardError, Skeleton } from './card-state';
import { ScoreGauge } from './score-gauge';

/** How many factors the 'why' list shows. */
const TOP_FACTORS = 3;

function Reasons({ report }: { report: ScoreReport }) {
  const costly = report.factors.filter((f) => f.contribution > 0).slice(0, TOP_FACTORS);
  if (costly.length === 0) return <p className={styles.muted}>감점 요인이 없어요. 완벽해요!</p>;
  return (
    <>
      <h3 className={styles.subTitle}>점수에 영향을 준 요인</h3>
      <ol className={styles.factors} data-testid="score-factors">
        {costly.map((factor) => (
          <li key={factor.key}>
            <span className={styles.factorLabel}>{factor.label}</span>
            <span className={styles.factorPoints}>−{factor.contribution}점</span>
            <span className={styles.factorDetail}>{factor.detail}</span>
          </li>
        ))}
      </ol>
      <h3 className={styles.subTitle}>점수를 올리려면</h3>
      <ul className={styles.tips}>
        {costly.map((factor) => (
          <li key={factor.key}>{factor.tip}</li>
        ))}
      </ul>
    </>
  );
}

/** The OhGood score: gauge, band, our one-liner and the reasons behind it (report.md#D1). */
export function ScoreCard() {
  const score = useScore();
  return (
    <section className={styles.card} aria-labelledby="score-title" aria-busy={score.isPending}>
      <h2 id="score-title" className={styles.cardTitle}>
        오굿 점수
      </h2>
      {score.isPending ? (
        <>
          <span className="visually-hidden" role="status">
            오굿 점수를 불러오는 중...
          </span>
          <Skeleton tall height={533} />
        </>
      ) : score.isError ? (
        <>
          <ScoreGauge score={null} />
          <CardError onRetry={() => void score.refetch()} retrying={score.isFetching} />
        </>
      ) : (
        <>
          <ScoreGauge score={score.data.ohgoodScore} band={score.data.band} />
          <p className={styles.scoreMessage} data-testid="score-message">
            {score.data.message}
          </p>
          <Reasons report={score.data} />
        </>
      )}
    </section>
  );
}
