import { QueryClient } from '@tanstack/react-query';
import { createCaller } from '../../../shared/caller';

/*
 * The merchant portal's caller, made by the one caller factory: its token is a merchant user's (sessionStorage,
 * this tab only), never the customer's or an operator's, and a 401 signs the portal out, not the customer app.
 */
const TOKEN_KEY = 'merchantPortalToken';

export const portalToken = {
  get: () => sessionStorage.getItem(TOKEN_KEY),
  set: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

let onSignedOut: () => void = () => undefined;
/** What the portal does when the server ends the session (shows the sign-in again). */
export function whenPortalSignedOut(listener: () => void): void {
  onSignedOut = listener;
}

export const callPortal = createCaller({
  token: () => portalToken.get(),
  // The server answers a missing token itself (sign-in and enrolment need none; the rest 401).
  needsToken: () => false,
  refused: (failure, endpoint) => {
    if (failure.status !== 401 || endpoint.access === 'public') return;
    portalToken.clear();
    onSignedOut();
  },
});

/**
 * The portal's own cache, apart from the customer app's: a shop's payments never sit beside a customer's data.
 * Screens read afresh when they open; a failed read shows its error with a retry at once. Signing out empties it.
 */
export function createPortalQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 0, retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
