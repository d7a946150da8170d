import { Delete } from 'lucide-react';
import styles from './number-pad.module.css';

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'] as const;

interface NumberPadProps {
  onDigit: (digit: string) => void;
  onDelete: () => void;
  onClear: () => void;
  disabled?: boolean;
  label: string;
}

/** A phone-style keypad; physical keyboards work too through the page's key handler. */
export function NumberPad({ onDigit, onDelete, onClear, disabled, label }: NumberPadProps) {
  return (
    <fieldset className={styles.pad}>
      <legend className="visually-hidden">{label}</legend>
      {KEYS.map((key) => (
        <button key={key} type="button" onClick={() => onDigit(key)} disabled={disabled}>
          {key}
        </button>
      ))}
      <button type="button" className={styles.muted} onClick={onClear} disabled={disabled}>
        전체삭제
      </button>
      <button type="button" onClick={() => onDigit('0')} disabled={disabled}>
        0
      </button>
      <button type="button" className={styles.muted} onClick={onDelete} disabled={disabled} aria-label="지우기">
        <Delete size={22} aria-hidden />
      </button>
    </fieldset>
  );
}
