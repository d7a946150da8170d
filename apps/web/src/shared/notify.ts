import { showToast } from './toast';

/** The spec's alerts (§8), shown as the app's one toast instead of a native alert(). */
export function notify(message: string): void {
  showToast(message);
}
