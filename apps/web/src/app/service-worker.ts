/**
 * Registers the service worker (the installable app, ADR 0041) a few seconds after the page has loaded:
 * installing it downloads the whole app shell, which must not compete with the first page for the network
 * or the main thread. Production builds only; the dev server has no worker.
 */
export function registerServiceWorkerWhenSettled(delayMs = 3000): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () =>
    setTimeout(() => void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined), delayMs);
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
