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
  const id = crypto.randomUUID();
  try {
    localStorage.setItem(KEY, id);
  } catch {
    // Private mode without storage: the id still works for this visit.
  }
  return id;
}
