import { createHash } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { staffSessions } from '../../db/schema';
import type { Tx } from '../../db/tx';

/** What operators' sign-in and administration share: enrolment links and the end of sessions. */

/** An enrolment link is good for a day, once. */
export const ENROLMENT_MS = 24 * 60 * 60 * 1000;

/** Enrolment links are stored as their hash. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Ends every open session of an operator (a role change, a disable). */
export function endSessions(tx: Tx, staffId: number, at: Date) {
  return tx
    .update(staffSessions)
    .set({ endedAt: at })
    .where(and(eq(staffSessions.staffId, staffId), isNull(staffSessions.endedAt)));
}
