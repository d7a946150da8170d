import type { ReactNode } from 'react';

/**
 * A file picker: the label is what shows (a preview or a hint) and what is pressed; the file input inside it
 * is hidden. Its value is cleared after each pick, so picking the same file again still reports it.
 */
export function FilePicker({
  className,
  accept,
  onPick,
  label,
  testId,
  children,
}: {
  className?: string;
  accept: string;
  onPick: (file: File | undefined) => void;
  /** The input's accessible name when the label's content does not give one. */
  label?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <label className={className}>
      {children}
      <input
        type="file"
        accept={accept}
        className="visually-hidden"
        aria-label={label}
        data-testid={testId}
        onChange={(e) => {
          onPick(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
    </label>
  );
}
