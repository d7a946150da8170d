/**
 * Lets code outside React (the API client) navigate with the app's router. The app registers the router's
 * navigate when it mounts. A navigation asked for before then (a page's first requests go out while React
 * hydrates it, and one may be refused) waits for the router and is made as it registers: a full page load
 * there would throw away the app and the message that says why (ADR 0258).
 */
type Navigate = (path: string, options?: { replace?: boolean }) => void;

let navigateImpl: Navigate | null = null;
let waiting: Parameters<Navigate> | null = null;

export function registerNavigator(navigate: Navigate): void {
  navigateImpl = navigate;
  const held = waiting;
  waiting = null;
  if (held) navigate(...held);
}

export function navigateTo(path: string, options?: { replace?: boolean }): void {
  if (navigateImpl) navigateImpl(path, options);
  else waiting = [path, options];
}

/** React Router numbers its history entries; index 0 is the page the app was opened on. */
export function hasInAppHistory(state: unknown = window.history.state): boolean {
  const idx = (state as { idx?: unknown } | null)?.idx;
  return typeof idx === 'number' && idx > 0;
}
