import { ErrorText } from '../../../shared/ui/page';
import styles from './discovery.module.css';

/** The shared load error ('오류가 발생했습니다: {message}' with '다시 시도'), centred in a discovery list. */
export function RetryError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div className={styles.center}>
      <ErrorText error={error} onRetry={onRetry} />
    </div>
  );
}
