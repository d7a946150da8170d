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
 * Keeps the id the server answered with: the server issues session ids, so a first turn (or one after the
 * server forgot the session) comes back with a new one, which every later turn must send.
 */
export function rememberSessionId(id: string): string {
  try {
    localStorage.setItem(KEY, id);
  } catch {
    // Private mode without storage: the id still works for this visit.
  }
  return id;
}
