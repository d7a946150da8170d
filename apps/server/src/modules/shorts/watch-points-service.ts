import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { createWatchPointActions } from './watch-points-actions';
import { createWatchPointReads } from './watch-points-reads';

/**
 * Points for watching shorts (docs/rules/shorts.md#S16): a short served to a customer (a feed page, the
 * short itself, or an opened view) starts a watch by the server's clock; claims are paid per real second
 * since then, each second once, capped per KST day. What the customer does (`watch-points-actions.ts`) and
 * reads (`watch-points-reads.ts`), with the SQL of both in `watch-points-repository.ts`.
 */
export function createWatchPointsService(db: Db, clock: Clock) {
  return { ...createWatchPointActions(db, clock), ...createWatchPointReads(db, clock) };
}

export type WatchPointsService = ReturnType<typeof createWatchPointsService>;
