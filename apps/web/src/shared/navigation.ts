/**
 * Lets code outside React (the API client) navigate with the app's router. The app registers the router's
 * navigate at start-up; before that, a full page load is the safe fallback.
 */
type Navigate = (path: string, options?: { replace?: boolean }) => void;

let navigateImpl: Navigate = (path) => window.location.assign(path);

export function registerNavigator(navigate: Navigate): void {
  navigateImpl = navigate;
}

export function navigateTo(path: string, options?: { replace?: boolean }): void {
  navigateImpl(path, options);
}

/** React Router numbers its history entries; index 0 is the page the app was opened on. */
export function hasInAppHistory(state: unknown = window.history.state): boolean {
  const idx = (state as { idx?: unknown } | null)?.idx;
  return typeof idx === 'number' && idx > 0;
}
