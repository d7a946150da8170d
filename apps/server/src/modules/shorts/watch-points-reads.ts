import { kstDate } from '@ohgood/contract/kst';
import { LIMITS } from '@ohgood/contract/limits';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { creditedOn } from './watch-points-repository';

/** What a customer reads of their watch points: today's total against the daily cap. */
export function createWatchPointReads(db: Db, clock: Clock) {
  return {
    /** Watch points credited today (KST) and the daily cap. */
    async watchToday(customerId: number): Promise<{ todayTotalPoints: number; limit: number }> {
      return {
        todayTotalPoints: await creditedOn(db, customerId, kstDate(clock.now())),
        limit: LIMITS.dailyWatchPointLimit,
      };
    },
  };
}
