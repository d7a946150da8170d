import type { MonthSpend } from '@ohgood/contract/report';
import { won } from '../../../shared/format';
import styles from '../report.module.css';
import { CATEGORY_COLORS } from '../report-format';

/** The selected month's categories: a share strip (SVG) and the ranked list with fixed colours. */
export function CategoryList({ spend }: { spend: MonthSpend }) {
  let offset = 0;
  return (
    <>
      <svg className={styles.strip} viewBox="0 0 100 8" preserveAspectRatio="none" aria-hidden>
        {spend.categories.map((category) => {
          const x = offset;
          offset += (category.amount / spend.totalSpend) * 100;
          return (
            <rect
              key={category.name}
              x={x}
              y="0"
              width={(category.amount / spend.totalSpend) * 100}
              height="8"
              fill={CATEGORY_COLORS[category.name]}
            />
          );
        })}
      </svg>
      <ol className={styles.categories} data-testid="category-list">
        {spend.categories.map((category) => (
          <li key={category.name}>
            <span className={styles.rank}>
              {category.rank}
              <span className="visually-hidden">위</span>
            </span>
            <span className={styles.dot} style={{ background: CATEGORY_COLORS[category.name] }} aria-hidden />
            <span className={styles.categoryName}>{category.name}</span>
            <span className={styles.categoryShare}>{category.percentage}%</span>
            <span className={styles.categoryAmount}>{won(category.amount)}</span>
          </li>
        ))}
      </ol>
    </>
  );
}
