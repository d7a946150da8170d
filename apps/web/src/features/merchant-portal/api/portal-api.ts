import { createSessionQueryClient } from '../../../shared/session-query-client';
import { createTabSessionCaller } from '../../../shared/tab-session-caller';

/*
 * The merchant portal's caller: its token is a merchant user's (this tab only), never the customer's or an
 * operator's, and a 401 signs the portal out, not the customer app.
 */
const session = createTabSessionCaller('merchantPortalToken');

export const portalToken = session.token;
/** What the portal does when the server ends the session (shows the sign-in again). */
export const whenPortalSignedOut = session.whenSignedOut;
export const callPortal = session.call;

/** The portal's own cache: a shop's payments never sit beside a customer's data. Signing out empties it. */
export const createPortalQueryClient = createSessionQueryClient;

/** The merchant API's endpoints take the portal's session in place of an `X-Merchant-Key` header. */
export const merchantApiSession = { headers: {} };
