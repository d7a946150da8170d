import type { Db } from '../../db/client';
import { withTx } from '../../db/tx';
import { eventsInsertQuery } from '../../events/record-event';
import { expireDueBatch } from './payment-requests-repository';

/** Requests closed per transaction: a backlog (after downtime) is worked off in short transactions. */
const BATCH = 500;

/**
 * Turns expiries into facts (ADR 0237): every ACTIVE request past its expiry becomes EXPIRED, closed at its
 * expiry instant, with its `payment.expired` event in the same transaction, so the event exists exactly once
 * per request that expired (a cancel or a final that won the row never expires it). Reads still decide expiry
 * by the clock (`effectiveStatus`); this is the one place the status is written. Rows another transaction
 * holds (a final in progress) are skipped, never waited on, and looked at again next time. Returns how many
 * it closed.
 */
export async function expireDueRequests(db: Db, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const closed = await withTx(db, async (tx) => {
      const rows = await expireDueBatch(tx, now, BATCH);
      await eventsInsertQuery(
        tx,
        rows.map((row) => ({
          event: { type: 'payment.expired' as const, requestId: row.id, merchantId: row.merchantId },
          at: row.at,
        })),
      );
      return rows.length;
    });
    total += closed;
    if (closed < BATCH) return total;
  }
}
