import styles from './switch.module.css';

/**
 * An on/off switch: a button with `role="switch"` and `aria-checked`, so its state is whatever the app says
 * (a native checkbox flips itself before the app decides, e.g. before a confirm sheet is answered).
 */
export function Switch({
  checked,
  onChange,
  disabled,
  labelledBy,
  label,
  testId,
}: {
  checked: boolean;
  onChange: (next: boolean) => void;
  disabled?: boolean;
  labelledBy?: string;
  label?: string;
  testId?: string;
}) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-labelledby={labelledBy}
      aria-label={label}
      disabled={disabled}
      className={styles.switch}
      onClick={() => onChange(!checked)}
      data-testid={testId}
    >
      <span className={styles.knob} aria-hidden />
    </button>
  );
}
