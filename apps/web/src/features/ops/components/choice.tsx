import styles from './ops-console.module.css';

/** A labelled select of fixed options, each shown by its Korean name. */
export function Choice<T extends string>({
  label,
  value,
  options,
  names,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly T[];
  names: (option: T) => string;
  onChange: (value: T) => void;
}) {
  return (
    <label className={styles.field}>
      {label}
      <select className={styles.input} value={value} onChange={(e) => onChange(e.target.value as T)}>
        {options.map((option) => (
          <option key={option} value={option}>
            {names(option)}
          </option>
        ))}
      </select>
    </label>
  );
}
