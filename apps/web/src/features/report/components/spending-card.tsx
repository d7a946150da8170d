import { ANALYSIS_WINDOW, REPORT_MSG } from '@ohgood/contract/report-rules';
import { useState } from 'react';
import { won } from '../../../shared/format';
import { useIdleReveal } from '../../../shared/use-idle-reveal';
import { useAnalysis } from '../api/report-api';
import styles from '../report.module.css';
import { monthLong } from '../report-format';
import { CardError, Skeleton } from './card-state';
import { CategoryList } from './category-list';
import { MonthlyBars } from './monthly-bars';

/** Window choices offered on the card; the first load uses the default window (3). */
const WINDOWS = [3, 6, 12] as const;

/** '소비 패턴 분석': monthly bars, and the chosen month's categories and total (report.md#D3). */
export function SpendingCard() {
  const [windowMonths, setWindowMonths] = useState<number>(ANALYSIS_WINDOW.default);
  const [picked, setPicked] = useState<string | null>(null);
  const analysis = useAnalysis(windowMonths);
  // Below the fold: its bars come in an idle moment after the answer (see useIdleReveal).
  const revealed = useIdleReveal(!analysis.isPending);
  const loading = analysis.isPending || !revealed;
  const data = analysis.data;
  const selected = data && picked && data.months.includes(picked) ? picked : (data?.selectedMonth ?? '');
  const month = data?.monthly[selected];
  const hasAny = data ? data.months.some((m) => (data.monthly[m]?.totalSpend ?? 0) > 0) : false;

  return (
    <section className={styles.card} aria-labelledby="spending-title" aria-busy={loading}>
      <div className={styles.cardHead}>
        <h2 id="spending-title" className={styles.cardTitle}>
          {REPORT_MSG.analysisTitle}
        </h2>
        {data && !loading ? <span className={styles.period}>{data.period}</span> : null}
      </div>
      <fieldset className={styles.windows}>
        <legend className="visually-hidden">분석 기간</legend>
        {WINDOWS.map((n) => (
          <button
            key={n}
            type="button"
            className={n === windowMonths ? styles.windowActive : styles.window}
            aria-pressed={n === windowMonths}
            onClick={() => setWindowMonths(n)}
          >
            {n}개월
          </button>
        ))}
      </fieldset>
      {loading ? (
        <>
          <span className="visually-hidden" role="status">
            소비 데이터를 불러오는 중...
          </span>
          <Skeleton tall lines={2} height={362} />
        </>
      ) : analysis.isError || !data ? (
        <CardError onRetry={() => void analysis.refetch()} retrying={analysis.isFetching} />
      ) : !hasAny ? (
        <p className={styles.empty}>{REPORT_MSG.noSpending}</p>
      ) : (
        <>
          <MonthlyBars analysis={data} selected={selected} onSelect={setPicked} />
          <p className={styles.total} aria-live="polite" data-testid="spending-total">
            <span>{monthLong(selected)}</span> 총 소비 <strong>{won(month?.totalSpend ?? 0)}</strong>
          </p>
          {month && month.totalSpend > 0 ? (
            <CategoryList spend={month} />
          ) : (
            <p className={styles.empty}>{REPORT_MSG.noSpendingThisMonth}</p>
          )}
        </>
      )}
    </section>
  );
}
