import { REPORT_MSG } from '@ohgood/contract/report-rules';
import type { ReactNode } from 'react';
import { BackHeader } from '../../shared/ui/back-header';
import { AdviceCarousel } from './components/advice-carousel';
import { ScoreCard } from './components/score-card';
import { SpendingCard } from './components/spending-card';
import styles from './report.module.css';

/**
 * /dashboard: back button, score, this month's card (composed by the app from the bills
 * feature), spending analysis and advice. Each card loads (in parallel) and fails on its own.
 */
export function DashboardPage({ thisMonth }: { thisMonth?: ReactNode }) {
  return (
    <section className={styles.page} aria-labelledby="page-title">
      <BackHeader title={REPORT_MSG.title} titleId="page-title" />
      <div className={styles.stack}>
        <ScoreCard />
        {thisMonth}
        <SpendingCard />
        <AdviceCarousel />
      </div>
    </section>
  );
}
