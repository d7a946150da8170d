import { REPORT_MSG } from '@ohgood/contract/report-rules';
import { ChevronLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { AdviceCarousel } from './components/advice-carousel';
import { ScoreCard } from './components/score-card';
import { SpendingCard } from './components/spending-card';
import styles from './report.module.css';

/**
 * /dashboard: back button, score, this month's card (composed by the app from the bills
 * feature), spending analysis and advice. Each card loads (in parallel) and fails on its own.
 */
export function DashboardPage({ thisMonth }: { thisMonth?: ReactNode }) {
  const navigate = useNavigate();
  // React Router keeps the history index: with nothing to go back to (opened directly), go home.
  const back = () => ((window.history.state?.idx ?? 0) > 0 ? navigate(-1) : navigate('/'));
  return (
    <section className={styles.page} aria-labelledby="page-title">
      <div className={styles.topBar}>
        <button type="button" className={styles.back} onClick={back} aria-label="뒤로 가기">
          <ChevronLeft size={24} aria-hidden />
        </button>
        <h1 id="page-title" className={styles.title}>
          {REPORT_MSG.title}
        </h1>
      </div>
      <div className={styles.stack}>
        <ScoreCard />
        {thisMonth}
        <SpendingCard />
        <AdviceCarousel />
      </div>
    </section>
  );
}
