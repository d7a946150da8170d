import { createCaller } from '../../../shared/caller';

/*
 * The console's caller, made by the one caller factory: its token is an operator's (sessionStorage, this tab
 * only) and never the customer's, and a 401 signs the console out, not the customer app. A 403 keeps the
 * session: the role may not do this, the operator stays signed in.
 */
const TOKEN_KEY = 'opsToken';

export const opsToken = {
  get: () => sessionStorage.getItem(TOKEN_KEY),
  set: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

let onSignedOut: () => void = () => undefined;
/** What the console does when the server ends the operator's session (shows the sign-in again). */
export function whenSignedOut(listener: () => void): void {
  onSignedOut = listener;
}

export const callOps = createCaller({
  token: () => opsToken.get(),
  // The server answers a missing token itself (sign-in and enrolment need none; the rest 401).
  needsToken: () => false,
  refused: (failure, endpoint) => {
    if (failure.status !== 401 || endpoint.access === 'public') return;
    opsToken.clear();
    onSignedOut();
  },
});
