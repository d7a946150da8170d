import { showToast } from './toast';

/** The app's alerts (failures, results, login needed), shown as one toast instead of a native alert(). */
export function notify(message: string): void {
  showToast(message);
}
