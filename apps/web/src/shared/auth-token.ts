import { useDeferredValue, useSyncExternalStore } from 'react';

/**
 * The access token lives in session storage under `accessToken`. Open tabs of the app share it
 * over a BroadcastChannel (ADR 0040): a tab opened without one (a phone camera opening a QR link) asks
 * the others first, a login in one tab logs in the others, and a logout logs out every tab.
 */
const KEY = 'accessToken';
/**
 * The attribute on `<html>` while a session is held. index.html's inline script sets it before the first
 * paint, from the same key, so a prerendered page (rendered for nobody) holds the places a signed-in page
 * fills after hydrating (this month's card on Home, the bell): nothing moves when they come (ADR 0262).
 */
export const SIGNED_IN_MARK = 'data-signed-in';
/** How long a new tab waits for another tab's answer before deciding it is logged out. */
export const SHARE_WAIT_MS = 250;

type Message = { type: 'ask' } | { type: 'token'; token: string } | { type: 'logout' };

const listeners = new Set<() => void>();
let checking = false;
let channel: BroadcastChannel | null = null;

function emit(): void {
  for (const listener of listeners) listener();
}

export function getToken(): string | null {
  return sessionStorage.getItem(KEY);
}

function store(token: string | null): void {
  if (token) sessionStorage.setItem(KEY, token);
  else sessionStorage.removeItem(KEY);
  document.documentElement.toggleAttribute(SIGNED_IN_MARK, token !== null);
  checking = false;
  emit();
}

export function setToken(token: string): void {
  loggedOutByUser = false;
  sessionExpired = false;
  store(token);
  channel?.postMessage({ type: 'token', token } satisfies Message);
}

let loggedOutByUser = false;

export function clearToken(): void {
  loggedOutByUser = false;
  dropToken();
}

/** Forgets the token here and in every other open tab; callers set why first, so listeners read it. */
function dropToken(): void {
  store(null);
  channel?.postMessage({ type: 'logout' } satisfies Message);
}

let sessionExpired = false;

/** The server refused the held token (expired or revoked): the session ends, and the login page says why. */
export function expireSession(): void {
  sessionExpired = true;
  clearToken();
}

/** True after the server ended the session (until the next login or logout). */
export function wasSessionExpired(): boolean {
  return sessionExpired;
}

/** The logout icon: like clearToken, but guarded pages then leave quietly instead of asking for a login. */
export function logout(): void {
  sessionExpired = false;
  loggedOutByUser = true;
  dropToken();
}

/** True after the user logged out here (until the next login or session loss). */
export function wasLoggedOutByUser(): boolean {
  return loggedOutByUser;
}

function startSharing(): void {
  if (typeof BroadcastChannel === 'undefined' || channel) return;
  channel = new BroadcastChannel('ohgood-auth');
  channel.onmessage = (event: MessageEvent<Message>) => {
    const message = event.data;
    if (message.type === 'ask') {
      const token = getToken();
      if (token) channel?.postMessage({ type: 'token', token } satisfies Message);
    } else if (message.type === 'token') {
      if (getToken() !== message.token) store(message.token);
    } else if (message.type === 'logout') {
      if (getToken()) store(null);
    }
  };
  if (!getToken()) {
    checking = true;
    channel.postMessage({ type: 'ask' } satisfies Message);
    setTimeout(() => {
      if (!checking) return;
      checking = false;
      emit();
    }, SHARE_WAIT_MS);
  }
}

if (typeof window !== 'undefined') startSharing();

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  // Login state is rechecked whenever the window regains focus and when another tab changes it.
  window.addEventListener('focus', onChange);
  window.addEventListener('storage', onChange);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('focus', onChange);
    window.removeEventListener('storage', onChange);
  };
}

export type AuthState = 'in' | 'out' | 'checking';

function authState(): AuthState {
  if (getToken() !== null) return 'in';
  return checking ? 'checking' : 'out';
}

/**
 * What a page prerendered at build time shows (src/build/prerender.tsx) and what React hydrates it with:
 * nobody is known yet. Guarded pages wait instead of redirecting; right after hydrating, React renders
 * again with the session actually held.
 */
const beforeTheSessionIsRead = (): AuthState => 'checking';

/**
 * A session appearing, rendered as a deferred value: React renders a store's change synchronously, and the
 * change right after hydrating a prerendered page (from "nobody known yet" to the session held) re-renders
 * the layout and the whole signed-in page. Deferred, that render happens in the background and yields to the
 * browser between components instead of being one long task (ADR 0142). A session ending is shown at once:
 * nothing signed-in may stay on screen a render longer, asking for data without a token.
 *
 * Only whether a session is held is deferred: a deferred value renders its component a second time for each
 * change, and the anonymous start's 'checking' → 'out' (the other tabs did not answer) re-rendered every
 * layout twice after hydrating, for the same screen.
 */
function useSessionShown(held: boolean): boolean {
  const shown = useDeferredValue(held);
  return held && shown;
}

/** 'checking' only briefly at start-up while another open tab may hand over its session. */
export function useAuthState(): AuthState {
  const state = useSyncExternalStore(subscribe, authState, beforeTheSessionIsRead);
  const shown = useSessionShown(state === 'in');
  // A session held but not rendered yet is still being read for the page: it waits, and never asks for a login.
  if (state === 'in') return shown ? 'in' : 'checking';
  return state;
}

/**
 * True while a token is held; re-read on load, on focus and on every change made here. Its own snapshot (a
 * token held or not): whether other tabs are still being asked changes nothing this hook returns, so it
 * renders nothing again when they have not answered.
 */
export function useIsLoggedIn(): boolean {
  const held = useSyncExternalStore(subscribe, hasToken, () => false);
  return useSessionShown(held);
}

function hasToken(): boolean {
  return getToken() !== null;
}
