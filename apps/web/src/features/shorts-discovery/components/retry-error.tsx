import buttons from '../../../shared/ui/button.module.css';
import { ErrorText } from '../../../shared/ui/page';
import styles from './discovery.module.css';

/** '오류가 발생했습니다: {message}' with a '다시 시도' button. */
export function RetryError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div className={styles.center}>
      <ErrorText error={error} />
      <button type="button" className={buttons.ghost} onClick={onRetry}>
        다시 시도
      </button>
    </div>
  );
}
