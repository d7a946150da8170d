import { merchantSettlementEndpoints } from '@ohgood/contract/settlements';
import { saveCsv } from '../../../shared/save-csv';
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

/** Downloads one settlement's CSV with the session and hands it to the browser as `settlement-<date>.csv`. */
export async function downloadSettlementCsv(settlementId: number, date: string): Promise<void> {
  saveCsv(
    `settlement-${date}.csv`,
    await callPortal(merchantSettlementEndpoints.csv, { headers: {}, params: { settlementId } }),
  );
}
