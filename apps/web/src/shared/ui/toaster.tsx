import { useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import { currentToast, dismissToast, subscribeToast } from '../toast';
import styles from './toaster.module.css';

/** Marks what a toast must never cover: sticky action bars, the footer, a composer. */
export const TOAST_CLEARANCE = { 'data-toast-clearance': '' } as const;

const GAP_PX = 12;

/**
 * How far above the layout viewport's bottom the toast sits: over the highest marked bar at the bottom and
 * over the on-screen keyboard (which shrinks the visual viewport, not the layout one).
 */
function liftPx(): number {
  const viewport = window.visualViewport;
  let floor = viewport ? viewport.offsetTop + viewport.height : window.innerHeight;
  for (const el of document.querySelectorAll('[data-toast-clearance]')) {
    const box = el.getBoundingClientRect();
    // Only what sits in the lower part of the screen pushes the toast up.
    if (box.height > 0 && box.top < floor && box.top > window.innerHeight / 2) floor = box.top;
  }
  return Math.max(0, window.innerHeight - floor) + GAP_PX;
}

/**
 * The app's one toast. The live region is always in the page so screen readers announce each message; the
 * box is a manual popover so it shows above an open modal dialog (both live in the top layer, newest on top).
 */
export function Toaster() {
  const toast = useSyncExternalStore(subscribeToast, currentToast, () => null);
  const layer = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = layer.current;
    if (!el) return;
    if (toast) el.style.bottom = `${liftPx()}px`;
    if (typeof el.showPopover !== 'function') return;
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
