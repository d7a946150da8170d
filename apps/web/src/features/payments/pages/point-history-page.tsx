import { kstMonth, kstTime } from '@ohgood/contract/kst';
import { PAY_MSG } from '@ohgood/contract/messages';
import { useMemo, useState } from 'react';
import { number } from '../../../shared/format';
import { groupByDay } from '../../../shared/group-by-day';
import { MonthNav } from '../../../shared/ui/month-nav';
import { ErrorText, LoadingText, Page } from '../../../shared/ui/page';
import { usePointHistory } from '../api/payments-api';
import styles from '../components/history-list.module.css';

export function signedPoints(point: number): string {
  return `${point > 0 ? '+' : point < 0 ? '−' : ''}${number(Math.abs(point))}P`;
}

export default function PointHistoryPage() {
  const currentMonth = kstMonth(new Date());
  const [month, setMonth] = useState(currentMonth);
  const history = usePointHistory(month);
  const groups = useMemo(() => groupByDay(history.data ?? [], (item) => item.date), [history.data]);

  return (
    <Page title="포인트 내역">
      <MonthNav month={month} max={currentMonth} onChange={setMonth} />
      {history.isPending ? (
        <LoadingText />
      ) : history.isError ? (
        <ErrorText error={history.error} onRetry={() => void history.refetch()} />
      ) : groups.length === 0 ? (
        <p className={styles.empty}>{PAY_MSG.noPoints}</p>
      ) : (
        <ul className={styles.groups}>
          {groups.map((group) => (
            <li key={group.day}>
              <h2 className={styles.day}>{group.label}</h2>
              <ul className={styles.items}>
                {group.items.map((item, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: ledger rows have no id in the spec's shape
                  <li key={`${item.date}-${index}`} className={styles.item}>
                    <div className={styles.row}>
                      <span>
                        <p className={styles.name}>{item.pointExplain}</p>
                        <p className={styles.sub}>
                          {item.merchant ? `${item.merchant} · ` : ''}
                          {kstTime(item.date)}
                        </p>
                      </span>
                      <span className={`${styles.amount} ${item.point >= 0 ? styles.plus : styles.minus}`}>
                        {signedPoints(item.point)}
                      </span>
                    </div>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
