import { REPORT_MSG } from '@ohgood/contract/report-rules';
import type { ReactNode } from 'react';
import { BackHeader } from '../../shared/ui/back-header';
import { BelowFold } from '../../shared/ui/below-fold';
import { AdviceCarousel } from './components/advice-carousel';
import { ScoreCard } from './components/score-card';
import { SpendingCard } from './components/spending-card';
import styles from './report.module.css';

/** The loading heights (px, at 390 px) of the cards below the fold, held until they mount. */
const LOWER_CARD_HEIGHTS = { thisMonth: 233, spending: 497, advice: 378 };

/**
 * /dashboard: back button, score, this month's card (composed by the app from the bills
 * feature), spending analysis and advice. Each card loads (in parallel) and fails on its own. The score
 * fills a phone's first screen (its reasons run past the fold); the three cards under it mount, and so ask
 * for their data, in idle moments after the first screen is shown, one card per moment.
 */
export function DashboardPage({ thisMonth }: { thisMonth?: ReactNode }) {
  return (
    <section className={styles.page} aria-labelledby="page-title">
      <BackHeader title={REPORT_MSG.title} titleId="page-title" />
      <div className={styles.stack}>
        <ScoreCard />
        {thisMonth ? (
          <BelowFold height={LOWER_CARD_HEIGHTS.thisMonth} className={styles.card}>
            {thisMonth}
          </BelowFold>
        ) : null}
        <BelowFold height={LOWER_CARD_HEIGHTS.spending} className={styles.card}>
          <SpendingCard />
        </BelowFold>
        <BelowFold height={LOWER_CARD_HEIGHTS.advice} className={styles.card}>
          <AdviceCarousel />
        </BelowFold>
      </div>
    </section>
  );
}
