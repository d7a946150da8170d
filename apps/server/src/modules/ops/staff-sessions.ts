import { and, eq, isNull } from 'drizzle-orm';
import { staffSessions } from '../../db/schema';
import type { Tx } from '../../db/tx';

/** Ends every open session of an operator (a role change, a disable). */
export function endSessions(tx: Tx, staffId: number, at: Date) {
  return tx
    .update(staffSessions)
    .set({ endedAt: at })
    .where(and(eq(staffSessions.staffId, staffId), isNull(staffSessions.endedAt)));
}
