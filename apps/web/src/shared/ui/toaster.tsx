import { useEffect, useRef, useSyncExternalStore } from 'react';
import { currentToast, dismissToast, subscribeToast } from '../toast';
import styles from './toaster.module.css';

/**
 * The app's one toast. The live region is always in the page so screen readers announce each message; the
 * box is a manual popover so it shows above an open modal dialog (both live in the top layer, newest on top).
 */
export function Toaster() {
  const toast = useSyncExternalStore(subscribeToast, currentToast, () => null);
  const layer = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = layer.current;
    if (!el || typeof el.showPopover !== 'function') return;
    if (el.matches(':popover-open')) el.hidePopover();
    // Re-shown for every message, so it is raised above a dialog opened since the last one.
    if (toast) el.showPopover();
  }, [toast]);
  return (
    <div ref={layer} popover="manual" className={styles.layer} data-open={toast ? 'true' : undefined}>
      <div role="status" aria-live="polite" aria-atomic="true" className={styles.region}>
        {toast ? (
          <button key={toast.id} type="button" className={styles.toast} onClick={dismissToast} data-testid="toast">
            {toast.message}
          </button>
        ) : null}
      </div>
    </div>
  );
}
