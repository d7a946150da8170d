import type { StatementSummary } from '@ohgood/contract/bills';
import { Lock } from 'lucide-react';
import { number, won } from '../../../shared/format';
import { type BillGroup, groupBadge, monthLabel } from '../bill-rules';
import styles from './bills.module.css';

export interface UnpaidListProps {
  groups: BillGroup[];
  selectable: Set<number>;
  selected: Set<number>;
  onToggle: (paymentId: number) => void;
  onToggleAll: (checked: boolean) => void;
  /** Per-month facts (overdue, extended) for each group's badge. */
  statements: readonly StatementSummary[];
}

function GroupBadge({ badge }: { badge: ReturnType<typeof groupBadge> }) {
  if (!badge) return null;
  return (
    <span className={badge.tone === 'danger' ? styles.badgeDanger : styles.badgeNeutral} data-testid="group-badge">
      {badge.text}
    </span>
  );
}

const shortDate = (iso: string) => `${Number(iso.slice(5, 7))}.${Number(iso.slice(8, 10))}`;

/** Unpaid lines by month with checkboxes; locked lines cannot be ticked (docs/rules/bills-and-grades.md#B7). */
export function UnpaidList({ groups, selectable, selected, onToggle, onToggleAll, statements }: UnpaidListProps) {
  const allSelected = selectable.size > 0 && [...selectable].every((id) => selected.has(id));
  return (
    <section className={styles.unpaid} aria-labelledby="unpaid-title">
      <div className={styles.unpaidHead}>
        <h2 id="unpaid-title">미납 내역</h2>
        <label className={styles.checkRow}>
          <input
            type="checkbox"
            checked={allSelected}
            disabled={selectable.size === 0}
            onChange={(event) => onToggleAll(event.target.checked)}
          />
          전체 선택
        </label>
      </div>
      {groups.length === 0 ? <p className={styles.empty}>미납 내역이 없습니다.</p> : null}
      {groups.map((group) => {
        const locked = group.lines.every((line) => !selectable.has(line.paymentId));
        const noteId = `locked-${group.month}`;
        return (
          <div key={group.month} className={styles.group}>
            <h3 className={styles.groupTitle}>
              {monthLabel(group.month)} 이용분
              <GroupBadge
                badge={groupBadge(
                  group,
                  statements.find((s) => s.month === group.month),
                )}
              />
            </h3>
            {locked ? (
              // Why these lines cannot be ticked, in words, not just a lock.
              <p id={noteId} className={styles.lockNote} data-testid="locked-reason">
                <Lock size={14} aria-hidden />
                이전 달 이용분을 모두 납부하면 선택할 수 있어요.
              </p>
            ) : null}
            <ul>
              {group.lines.map((line) => {
                const locked = !selectable.has(line.paymentId);
                // Dates come as KST ISO strings ('2026-11-05T14:00:00+09:00'), so the text is already Seoul time.
                return (
                  <li key={line.paymentId} className={locked ? styles.lineLocked : styles.line}>
                    <label className={styles.lineLabel}>
                      <input
                        type="checkbox"
                        checked={selected.has(line.paymentId)}
                        disabled={locked}
                        onChange={() => onToggle(line.paymentId)}
                        aria-label={`${line.requestName} ${won(line.price)} 선택`}
                        aria-describedby={locked ? noteId : undefined}
                      />
                      <span className={styles.lineText}>
                        <span className={styles.lineName}>{line.requestName}</span>
                        <span className={styles.lineDate}>
                          {shortDate(line.date)}
                          {line.point > 0 ? ` · 포인트 ${number(line.point)}P 사용` : ''}
                        </span>
                      </span>
                      <span className={styles.linePrice}>{won(line.price)}</span>
                      {locked ? <Lock size={16} className={styles.lockIcon} aria-hidden /> : null}
                    </label>
                  </li>
                );
              })}
            </ul>
          </div>
        );
      })}
    </section>
  );
}
