import { Check, Copy, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import buttons from '../../../shared/ui/button.module.css';
import { useReturnFocus } from '../../../shared/use-return-focus';
import { shareLink } from '../feed-logic';
import styles from './feed.module.css';

export const COPIED_MS = 2000;

export interface ShareDialogProps {
  shortsId: number;
  onClose(): void;
}

/** Share dialog with a copyable link; the copied state lasts 2 s. */
export function ShareDialog({ shortsId, onClose }: ShareDialogProps) {
  const link = shareLink(window.location.origin, shortsId);
  const [copied, setCopied] = useState(false);
  useReturnFocus();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      // Older browsers: select the text so the user can copy it by hand.
      const input = document.getElementById('share-link') as HTMLInputElement | null;
      input?.select();
      document.execCommand?.('copy');
    }
    setCopied(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  };

  return (
    <div className={styles.backdrop}>
      <button type="button" className={styles.scrim} onClick={onClose} aria-label="패널 닫기" tabIndex={-1} />
      <div className={styles.dialog} role="dialog" aria-modal="true" aria-labelledby="share-title">
        <div className={styles.sheetHeader}>
          <h2 id="share-title">공유하기</h2>
          <button type="button" className={`${buttons.icon} ${styles.iconButton}`} onClick={onClose} aria-label="닫기">
            <X size={20} aria-hidden />
          </button>
        </div>
        <label htmlFor="share-link" className="visually-hidden">
          공유 링크
        </label>
        <div className={styles.shareRow}>
          <input id="share-link" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" className={styles.copyButton} onClick={copy}>
            {copied ? <Check size={16} aria-hidden /> : <Copy size={16} aria-hidden />}
            {copied ? '복사됨' : '링크 복사'}
          </button>
        </div>
      </div>
    </div>
  );
}
