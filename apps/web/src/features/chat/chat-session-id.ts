/** The chat session id lives in local storage; entering the page replaces it. */
const KEY = 'ohgood.chat.sessionId';

export function storedSessionId(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function newSessionId(): string {
  return rememberSessionId(crypto.randomUUID());
}

/**
 * Keeps the id the server answered with. It is the id this client sent (the server accepts the client's ids,
 * docs/rules/chat.md#C1); a turn sent without one comes back with the id the server named.
 */
export function rememberSessionId(id: string): string {
  try {
    localStorage.setItem(KEY, id);
  } catch {
    // Private mode without storage: the id still works for this visit.
  }
  return id;
}
