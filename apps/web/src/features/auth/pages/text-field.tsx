import type { InputHTMLAttributes } from 'react';
import styles from './auth-form.module.css';

interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  id: string;
  label: string;
  invalid?: boolean;
  hint?: string;
  errorHint?: string;
}

/** A labelled input whose red border and hint follow `invalid` (a field that fails its pattern turns red). */
export function TextField({ id, label, invalid = false, hint, errorHint, className, ...input }: TextFieldProps) {
  const describedBy = hint || errorHint ? `${id}-hint` : undefined;
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className={`${styles.input} ${invalid ? styles.invalid : ''} ${className ?? ''}`}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        {...input}
      />
      {describedBy && (
        <p id={describedBy} className={invalid ? styles.hintError : styles.hint}>
          {invalid && errorHint ? errorHint : hint}
        </p>
      )}
    </div>
  );
}
