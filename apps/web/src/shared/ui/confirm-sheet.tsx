import type { PendingConfirm } from '../confirm';
import buttons from './button.module.css';
import styles from './confirm-sheet.module.css';
import { Modal } from './modal';

/** The in-app replacement for window.confirm: a bottom sheet with cancel and confirm. */
export default function ConfirmSheet({ request }: { request: PendingConfirm }) {
  const cancel = () => request.resolve(false);
  return (
    <Modal open title={request.title} onClose={cancel}>
      {request.message ? <p className={styles.message}>{request.message}</p> : null}
      <div className={styles.actions} data-testid="confirm-sheet">
        <button type="button" className={buttons.ghost} onClick={cancel}>
          {request.cancelLabel ?? '취소'}
        </button>
        <button
          type="button"
          className={request.danger ? buttons.danger : buttons.primary}
          onClick={() => request.resolve(true)}
        >
          {request.confirmLabel ?? '확인'}
        </button>
      </div>
    </Modal>
  );
}
