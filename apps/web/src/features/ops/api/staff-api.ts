import { createTabSessionCaller } from '../../../shared/tab-session-caller';

/*
 * The console's caller: its token is an operator's (this tab only) and never the customer's, and a 401 signs
 * the console out, not the customer app. A 403 keeps the session: the role may not do this, the operator stays
 * signed in.
 */
const session = createTabSessionCaller('opsToken');

export const opsToken = session.token;
/** What the console does when the server ends the operator's session (shows the sign-in again). */
export const whenSignedOut = session.whenSignedOut;
export const callOps = session.call;
