import { useId } from 'react';
import styles from './limited-field.module.css';

interface LimitedFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  maxLength: number;
  /** A multi-line field of this many rows; a single line without. */
  rows?: number;
  placeholder?: string;
  /** Shows 'length/max' beside the label. */
  counted?: boolean;
}

/** A labelled text input or textarea capped at `maxLength`, optionally with its character counter. */
export function LimitedField({
  label,
  value,
  onChange,
  maxLength,
  rows,
  placeholder,
  counted = false,
}: LimitedFieldProps) {
  const id = useId();
  const common = {
    id,
    value,
    maxLength,
    placeholder,
    onChange: (e: { target: { value: string } }) => onChange(e.target.value),
  };
  return (
    <div className={styles.field}>
      <span className={styles.head}>
        <label htmlFor={id}>{label}</label>
        {counted ? (
          <span className={styles.counter}>
            {value.length}/{maxLength}
          </span>
        ) : null}
      </span>
      {rows ? <textarea rows={rows} {...common} /> : <input {...common} />}
    </div>
  );
}
