import { createCaller } from './caller';

/**
 * A caller for a password + TOTP session of its own (the operator console, the merchant portal), made by the
 * one caller factory: its token lives in this tab's session storage under `storageKey`, never the customer's,
 * and a 401 of a non-public endpoint ends it and tells the screen (`whenSignedOut`), not the customer app.
 * The server answers a missing token itself (sign-in and enrolment need none; the rest 401). A refused code
 * at the TOTP step does not end the pending session.
 */
export function createTabSessionCaller(storageKey: string) {
  const token = {
    get: () => sessionStorage.getItem(storageKey),
    set: (value: string) => sessionStorage.setItem(storageKey, value),
    clear: () => sessionStorage.removeItem(storageKey),
  };
  let onSignedOut: () => void = () => undefined;
  const call = createCaller({
    token: () => token.get(),
    needsToken: () => false,
    refused: (failure, endpoint) => {
      // A wrong second-factor code is refused with a 401 too, but the pending session stays open on the server:
      // the sign-in keeps its token and asks for the next code.
      if (failure.status !== 401 || endpoint.access === 'public' || failure.code === 'INVALID_TOTP') return;
      token.clear();
      onSignedOut();
    },
  });
  return {
    token,
    call,
    /** What the screen does when the server ends the session (shows the sign-in again). */
    whenSignedOut(listener: () => void): void {
      onSignedOut = listener;
    },
  };
}
