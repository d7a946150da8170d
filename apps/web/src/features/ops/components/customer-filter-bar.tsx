import { GRADES } from '@ohgood/contract/grades';
import type { CustomerFilter } from '@ohgood/contract/ops-desk';
import styles from './ops-console.module.css';

/**
 * The one filter bar of the console's customer lists (docs/rules/operations.md#O16): grade, suspended (and by
 * whom), autopay, overdue, joined between. It edits a `CustomerFilter` as the contract spells it, so a list and
 * an action on "the filtered list" send the same thing; an empty choice is no filter.
 */
export function CustomerFilterBar({
  value,
  onChange,
}: {
  value: CustomerFilter;
  onChange: (next: CustomerFilter) => void;
}) {
  /** Sets one field; '' removes it. */
  const set = <K extends keyof CustomerFilter>(key: K, raw: string) => {
    const next = { ...value };
    if (raw === '') delete next[key];
    else next[key] = raw as CustomerFilter[K];
    onChange(next);
  };
  const choice = (key: keyof CustomerFilter, label: string, options: ReadonlyArray<readonly [string, string]>) => (
    <label className={styles.field}>
      {label}
      <select className={styles.input} value={value[key] ?? ''} onChange={(e) => set(key, e.target.value)}>
        <option value="">전체</option>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <fieldset className={styles.filters} aria-label="목록 필터">
      {choice(
        'grade',
        '등급',
        GRADES.map((g) => [g.name, g.label] as const),
      )}
      {choice('suspended', '결제 정지', [
        ['yes', '정지됨'],
        ['no', '정상'],
        ['staff', '운영자가 정지'],
        ['system', '연체로 자동 정지'],
      ])}
      {choice('autopay', '자동이체', [
        ['on', '켜짐'],
        ['off', '꺼짐'],
      ])}
      {choice('overdue', '연체', [
        ['yes', '연체 중'],
        ['no', '연체 없음'],
      ])}
      <label className={styles.field}>
        가입일 (부터)
        <input
          className={styles.input}
          type="date"
          value={value.joinedFrom ?? ''}
          onChange={(e) => set('joinedFrom', e.target.value)}
        />
      </label>
      <label className={styles.field}>
        가입일 (까지)
        <input
          className={styles.input}
          type="date"
          value={value.joinedTo ?? ''}
          onChange={(e) => set('joinedTo', e.target.value)}
        />
      </label>
      {Object.keys(value).length > 0 && (
        <button type="button" className={styles.secondary} onClick={() => onChange({})}>
          필터 지우기
        </button>
      )}
    </fieldset>
  );
}
