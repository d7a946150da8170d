import { type Ref, useId } from 'react';
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
  /** What is wrong with the value, said under the field and tied to it (the field reads as invalid). */
  error?: string | null;
  /** The multi-line field's textarea, e.g. to focus it on a refused submit. */
  ref?: Ref<HTMLTextAreaElement>;
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
  error,
  ref,
}: LimitedFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const common = {
    id,
    value,
    maxLength,
    placeholder,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
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
      {rows ? <textarea ref={ref} rows={rows} {...common} /> : <input {...common} />}
      {error ? (
        <p id={errorId} className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
