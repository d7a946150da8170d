import { useSyncExternalStore } from 'react';

/** Spec §3: the access token lives in session storage under `accessToken`. */
const KEY = 'accessToken';
const listeners = new Set<() => void>();

export function getToken(): string | null {
  return sessionStorage.getItem(KEY);
}

export function setToken(token: string): void {
  sessionStorage.setItem(KEY, token);
  for (const notify of listeners) notify();
}

export function clearToken(): void {
  sessionStorage.removeItem(KEY);
  for (const notify of listeners) notify();
}

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  // Login state is rechecked whenever the window regains focus (spec §2) and when another tab changes it.
  window.addEventListener('focus', onChange);
  window.addEventListener('storage', onChange);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('focus', onChange);
    window.removeEventListener('storage', onChange);
  };
}

/** True while a token is held; re-read on load, on focus and on every change made here. */
export function useIsLoggedIn(): boolean {
  return useSyncExternalStore(subscribe, () => getToken() !== null);
}
