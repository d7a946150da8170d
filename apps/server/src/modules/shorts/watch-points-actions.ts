import { kstDate } from '@ohgood/contract/kst';
import { LIMITS } from '@ohgood/contract/limits';
import type { EarnResult } from '@ohgood/contract/shorts';
import { minimumWatchSeconds, SHORTS_MSG, watchPoints } from '@ohgood/contract/shorts-rules';
import type { Db } from '../../db/client';
import { customerNotFound } from '../../db/locks';
import { withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { unprocessable } from '../../lib/errors';
import { shortNotFound } from './playable-short';
import { lockClaimBasis, readClaimedShort, writeWatchPayment } from './watch-points-repository';
import { createWatchStartQueue, openView } from './watch-starts';

/** No unpaid view of the short old enough for the claim, or its seconds were already paid. */
const noMatchingView = () => unprocessable('NO_MATCHING_VIEW', '시청 기록이 확인되지 않아 적립할 수 없습니다.');

/** The answer to a claim when the customer's KST day has no room left (`total` is the day's total). */
const dailyLimitReached = (total: number): EarnResult => ({
  success: false,
  code: 'DAILY_LIMIT_REACHED',
  message: SHORTS_MSG.dailyLimit,
  earnedPoints: 0,
  todayTotalPoints: total,
});

/** What a customer's watching does: start watches when shorts are served or played, and claim their points. */
export function createWatchPointActions(db: Db, clock: Clock) {
  const watchStarts = createWatchStartQueue(db);
  return {
    /**
     * The customer was just served these shorts: a watch starts now for each, in one statement with the other
     * pages served meanwhile (`watch-starts.ts`).
     */
    served(customerId: number, shortIds: readonly number[]): Promise<void> {
      return watchStarts.start(customerId, shortIds, clock.now());
    },

    /** A logged-in viewer started playing: the server's clock, not the client's, starts the watch. */
    async openView(shortId: number, customerId: number) {
      const startedAt = clock.now();
      const viewId = await openView(db, shortId, customerId, startedAt);
      if (viewId === null) throw shortNotFound();
      return { viewId, startedAt: startedAt.toISOString() };
    },

    /**
     * docs/rules/points.md#R5 and #R6. Pays only for an unrewarded view that began at least `watchedSeconds`
     * ago by the server clock (a claim longer than the video counts as the video's length), never less than
     * the minimum watch (3 s or half the short), one reward per view, each real second once (claims of one customer never overlap in
     * time: the per-day row keeps where the paid time ends), 100 P per KST day. The per-day row is
     * locked first (always the same order), so concurrent claims queue and the cap holds exactly.
     */
    async earn(customerId: number, shortId: number, watchedSeconds: number): Promise<EarnResult> {
      const now = clock.now();
      const today = kstDate(now);
      // The day's total is read with the short, without a lock: a day's total only grows, so a day already at
      // its cap is answered without the money lock and its transaction. Most claims of a keen viewer are these
      // (docs/performance.md).
      const [short] = await readClaimedShort(db, { shortId, customerId, today });
      if (!short) throw shortNotFound();
      const { credited } = short;
      // A claim longer than the video (a client that assumed a length before it knew the video's) is a claim
      // of the video's length (docs/rules/shorts.md#S16): the time since the short was served must still
      // cover it, so a long claim right after serving pays nothing.
      const claimedSeconds = Math.min(watchedSeconds, short.durationMs / 1000);
      if (claimedSeconds < minimumWatchSeconds(short.durationMs / 1000)) {
        throw unprocessable('WATCH_TOO_SHORT', '영상을 조금 더 시청하면 포인트를 받을 수 있어요.');
      }
      if (credited >= LIMITS.dailyWatchPointLimit) return dailyLimitReached(credited);
      const watchedMs = Math.ceil(claimedSeconds * 1000);
      const latestStart = new Date(now.getTime() - watchedMs);
      return withTx(db, async (tx) => {
        // Lock order (db/tx.ts): the customer first, then the per-day row and the view.
        const [basis] = await lockClaimBasis(tx, {
          customerId,
          shortId,
          today,
          latestStart: latestStart.toISOString(),
        });
        if (!basis) throw customerNotFound();
        const room = LIMITS.dailyWatchPointLimit - basis.total;
        if (room <= 0) return dailyLimitReached(basis.total);
        // Real seconds are paid once: views opened side by side cannot each claim the same wall-clock time.
        if (basis.watchedUntilMs !== null && basis.watchedUntilMs > latestStart.getTime()) throw noMatchingView();
        if (basis.viewId === null || basis.viewStartedMs === null) throw noMatchingView();
        const earned = Math.min(room, watchPoints(claimedSeconds));
        const total = await writeWatchPayment(tx, {
          customerId,
          shortId,
          viewId: basis.viewId,
          paidUntil: new Date(Math.max(basis.viewStartedMs, basis.watchedUntilMs ?? basis.viewStartedMs) + watchedMs),
          earned,
          dayTotal: basis.total,
          balance: basis.balance,
          at: now,
        });
        if (total === null) throw new Error('a watch claim found its view or day changed under their locks');
        return {
          success: true,
          message: SHORTS_MSG.earned(earned),
          earnedPoints: earned,
          todayTotalPoints: total,
        };
      });
    },
  };
}
