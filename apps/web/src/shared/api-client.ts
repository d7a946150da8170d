import type { ErrorCode } from '@ohgood/contract/errors';
import { MSG } from '@ohgood/contract/messages';
import { clearToken, expireSession, getToken, wasLoggedOutByUser } from './auth-token';
import { ApiError, type CallOptions, createCaller, fillPath, LONG_TIMEOUT, type SessionPolicy } from './caller';
import { navigateTo } from './navigation';
import { notify } from './notify';
import { currentPath, loginPath } from './return-to';

/*
 * The web's API module: the one caller factory and its error (made in `caller.ts`, which the console's page
 * imports without this module's customer session), and the customer app's caller built from it.
 */
export { ApiError, type CallOptions, createCaller, fillPath, LONG_TIMEOUT, type SessionPolicy };

/** 403 codes that mean "your session is not valid": they log the user out. Business 403s (e.g. a
 * suspended account) do not. */
const AUTH_FORBIDDEN_CODES: ReadonlySet<ErrorCode> = new Set(['FORBIDDEN', 'UNAUTHORIZED', 'TOKEN_REVOKED']);

function sendToLogin(): void {
  if (window.location.pathname !== '/login') navigateTo(loginPath(currentPath()), { replace: true });
}

/**
 * The customer app's caller. Customer endpoints need the customer's token (a held one is still sent to public
 * ones, so public feeds can personalise: docs/rules/api.md#A3); merchant calls carry their key header and never
 * touch the customer's session. A 401 or a session 403 logs the user out and goes to /login; a customer call
 * without a token never leaves the browser.
 */
export const callEndpoint = createCaller({
  token: (endpoint) => (endpoint.access === 'merchant' ? null : getToken()),
  needsToken: (endpoint) => endpoint.access === 'customer',
  onMissingToken: (endpoint) => {
    // A read made without a session right after the user logged out here belongs to a signed-in screen that is
    // leaving: one committed just before the logout can still start its queries as React finishes that commit.
    // It is refused quietly; the logout's own message stands, and guarded pages announce themselves.
    if (endpoint.method === 'GET' && wasLoggedOutByUser()) return;
    notify(MSG.loginRequired);
    sendToLogin();
  },
  refused: (failure, endpoint, sent) => {
    if (endpoint.access === 'merchant') return;
    if (failure.status === 403 && !AUTH_FORBIDDEN_CODES.has(failure.code)) return;
    // A held token the server refuses is an expired session: say so, rather than land on /login mutely.
    if (sent && window.location.pathname !== '/login') notify(MSG.sessionExpired);
    if (sent) expireSession();
    else clearToken();
    sendToLogin();
  },
});
