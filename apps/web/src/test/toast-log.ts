import { currentToast, dismissToast, subscribeToast } from '../shared/toast';

/** Every toast message shown since the last reset, in order (the app's alerts are toasts). */
export const toastLog: string[] = [];

subscribeToast(() => {
  const toast = currentToast();
  if (toast) toastLog.push(toast.message);
});

export function resetToastLog(): void {
  dismissToast();
  toastLog.length = 0;
}
