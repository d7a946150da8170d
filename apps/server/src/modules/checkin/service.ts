import { randomInt } from 'node:crypto';
import { CHECKIN_MSG } from '@ohgood/contract/bill-messages';
import type { RouletteResult } from '@ohgood/contract/checkin';
import { kstDate } from '@ohgood/contract/kst';
import { LIMITS } from '@ohgood/contract/limits';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { lockCustomer } from '../../db/locks';
import { checkins } from '../../db/schema';
import { isUniqueViolation, withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { conflict } from '../../lib/errors';
import { POINT_REASONS, postPoints } from '../points/ledger';

/** The prize, drawn uniformly by the server with the crypto RNG (docs/rules/points.md#R4). */
export function drawPrize(): number {
  const values = LIMITS.rouletteValues;
  return values[randomInt(values.length)] as number;
}

export interface CheckinService {
  doneToday(customerId: number): Promise<boolean>;
  spin(customerId: number): Promise<RouletteResult>;
}

export function createCheckinService(db: Db, clock: Clock, draw: () => number = drawPrize): CheckinService {
  return {
    async doneToday(customerId) {
      const rows = await db
        .select({ point: checkins.point })
        .from(checkins)
        .where(and(eq(checkins.customerId, customerId), eq(checkins.kstDate, kstDate(clock.now()))));
      return rows.length > 0;
    },

    async spin(customerId) {
      const now = clock.now();
      const day = kstDate(now);
      const point = draw();
      try {
        return await withTx(db, async (tx) => {
          // Lock order (db/tx.ts): the customer first, as every path that changes points.
          await lockCustomer(tx, customerId);
          // The primary key (customer, KST day) is the one-per-day guard: a racing second insert waits for the
          // first to commit and then fails with a unique violation.
          await tx.insert(checkins).values({ customerId, kstDate: day, point, createdAt: now });
          const balance = await postPoints(tx, {
            customerId,
            amount: point,
            reason: POINT_REASONS.checkin,
            refType: 'checkin',
            refId: day,
            idempotencyKey: `checkin:${customerId}:${day}`,
            at: now,
          });
          if (balance === null) throw conflict('ALREADY_CHECKED_IN', CHECKIN_MSG.alreadyDone);
          return { point, pointBalance: balance };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('ALREADY_CHECKED_IN', CHECKIN_MSG.alreadyDone);
        throw error;
      }
    },
  };
}
