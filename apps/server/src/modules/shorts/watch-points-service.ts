import { kstDate } from '@ohgood/contract/kst';
import { LIMITS } from '@ohgood/contract/limits';
import type { EarnResult } from '@ohgood/contract/shorts';
import { minimumWatchSeconds, SHORTS_MSG, watchPoints } from '@ohgood/contract/shorts-rules';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { withParts } from '../../db/cte';
import { customerLockedPart, customerNotFound } from '../../db/locks';
import { shortWatchDaily } from '../../db/schema';
import { builtOnce, withTx } from '../../db/tx';
import { recordEvent } from '../../events/record-event';
import type { Clock } from '../../lib/clock';
import { unprocessable } from '../../lib/errors';
import { POINT_REASONS, postPoints } from '../points/ledger';
import { readyShort, shortNotFound } from './playable-short';
import { openView, startWatches } from './watch-starts';

/**
 * Pays for a watch, in one statement: the customer's oldest unpaid view of the short that began by
 * `latestStart` is marked paid as it is picked (a concurrent claim skips it), and the day's row adds
 * `earned` and moves the end of the paid time to where this watch's seconds end (real seconds are paid
 * once: the next claim must fit after them). The day's row is already locked by the claim's upsert. No
 * view: `viewId` null and nothing written. A day's total past the cap (never, under that lock): `total` null.
 */
const payOldestView = builtOnce<{ viewId: number | null; total: number | null }>(
  sql`with paid_view as (
        update short_views set rewarded_at = ${sql.placeholder('now')}::timestamptz
         where id = (select id from short_views
                      where customer_id = ${sql.placeholder('customerId')}::int
                        and short_id = ${sql.placeholder('shortId')}::int
                        and rewarded_at is null
                        and started_at <= ${sql.placeholder('latestStart')}::timestamptz
                      order by started_at
                      limit 1
                      for update skip locked)
        returning id, started_at
      ), paid_day as (
        update short_watch_daily d
           set total = d.total + ${sql.placeholder('earned')}::int,
               watched_until = greatest(v.started_at, d.watched_until)
                               + ${sql.placeholder('watchedMs')}::int * interval '1 millisecond'
          from paid_view v
         where d.customer_id = ${sql.placeholder('customerId')}::int
           and d.kst_date = ${sql.placeholder('today')}::date
           and d.total + ${sql.placeholder('earned')}::int <= ${sql.placeholder('cap')}::int
        returning d.total
      )
      select (select id from paid_view) as "viewId", (select total from paid_day) as total`,
);

/**
 * A paying claim's first statement: the customer's row locked (step 1 of the lock order, db/locks.ts), then
 * the day's row created if missing and locked either way (an upsert that changes nothing locks the row it
 * meets), in one round trip. No row: the customer does not exist. The paid time's end comes as epoch ms (a
 * raw statement's timestamps are text).
 */
const lockCustomerAndDay = builtOnce<{ total: number; watchedUntilMs: number | null }>(
  withParts(
    [customerLockedPart(sql`${sql.placeholder('customerId')}::int`)],
    sql`insert into ${shortWatchDaily} (customer_id, kst_date, total)
        select id, ${sql.placeholder('today')}::date, 0 from customer_locked
        on conflict (customer_id, kst_date) do update set total = ${shortWatchDaily.total}
        returning total, floor(extract(epoch from watched_until) * 1000)::float8 as "watchedUntilMs"`,
  ),
);

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

/**
 * Points for watching shorts (docs/rules/shorts.md#S16): a short served to a customer (a feed page, the
 * short itself, or an opened view) starts a watch by the server's clock; claims are paid per real second
 * since then, each second once, capped per KST day.
 */
export function createWatchPointsService(db: Db, clock: Clock) {
  /** The watch points credited to the customer on the KST day `date`. */
  async function creditedOn(customerId: number, date: string): Promise<number> {
    const [daily] = await db
      .select({ total: shortWatchDaily.total })
      .from(shortWatchDaily)
      .where(and(eq(shortWatchDaily.customerId, customerId), eq(shortWatchDaily.kstDate, date)));
    return daily?.total ?? 0;
  }

  return {
    /** The customer was just served these shorts: a watch starts now for each (`watch-starts.ts`). */
    async served(customerId: number, shortIds: readonly number[]): Promise<void> {
      await startWatches(db, customerId, shortIds, clock.now());
    },

    /** A logged-in viewer started playing: the server's clock, not the client's, starts the watch. */
    async openView(shortId: number, customerId: number) {
      const startedAt = clock.now();
      const viewId = await openView(db, shortId, customerId, startedAt);
      if (viewId === null) throw shortNotFound();
      return { viewId, startedAt: startedAt.toISOString() };
    },

    /** Watch points credited today (KST) and the daily cap. */
    async watchToday(customerId: number): Promise<{ todayTotalPoints: number; limit: number }> {
      return {
        todayTotalPoints: await creditedOn(customerId, kstDate(clock.now())),
        limit: LIMITS.dailyWatchPointLimit,
      };
    },

    /**
     * docs/rules/points.md#R5 and #R6. Pays only for an unrewarded view that began at least `watchedSeconds`
     * ago by the server clock, never more than the video's length nor less than the minimum watch (3 s or
     * half the short), one reward per view, each real second once (claims of one customer never overlap in
     * time: the per-day row keeps where the paid time ends), 100 P per KST day. The per-day row is
     * locked first (always the same order), so concurrent claims queue and the cap holds exactly.
     */
    async earn(customerId: number, shortId: number, watchedSeconds: number): Promise<EarnResult> {
      const now = clock.now();
      const today = kstDate(now);
      // The day's total is read beside the short (one round trip's wait): a day's total only grows, so a day
      // already at its cap is answered without the money lock and its transaction. Most claims of a keen
      // viewer are these (docs/performance.md).
      const [short, credited] = await Promise.all([readyShort(db, shortId), creditedOn(customerId, today)]);
      if (watchedSeconds * 1000 > short.durationMs) {
        throw unprocessable('WATCH_TOO_LONG', '영상 길이보다 긴 시청 시간은 적립할 수 없습니다.');
      }
      if (watchedSeconds < minimumWatchSeconds(short.durationMs / 1000)) {
        throw unprocessable('WATCH_TOO_SHORT', '영상을 조금 더 시청하면 포인트를 받을 수 있어요.');
      }
      if (credited >= LIMITS.dailyWatchPointLimit) return dailyLimitReached(credited);
      const watchedMs = Math.ceil(watchedSeconds * 1000);
      const latestStart = new Date(now.getTime() - watchedMs);
      return withTx(db, async (tx) => {
        // Lock order (db/tx.ts): the customer first, then the per-day row and the view.
        const [daily] = await lockCustomerAndDay(tx, { customerId, today });
        if (!daily) throw customerNotFound();
        const before = daily.total;
        const room = LIMITS.dailyWatchPointLimit - before;
        if (room <= 0) return dailyLimitReached(before);
        // Real seconds are paid once: views opened side by side cannot each claim the same wall-clock time.
        if (daily.watchedUntilMs !== null && daily.watchedUntilMs > latestStart.getTime()) {
          throw noMatchingView();
        }
        const earned = Math.min(room, watchPoints(watchedSeconds));
        const [paid] = await payOldestView(tx, {
          customerId,
          shortId,
          today,
          now: now.toISOString(),
          latestStart: latestStart.toISOString(),
          earned,
          watchedMs,
          cap: LIMITS.dailyWatchPointLimit,
        });
        const viewId = paid?.viewId ?? null;
        if (viewId === null) throw noMatchingView();
        const total = paid?.total ?? null;
        if (total === null) throw new Error('daily watch total changed under its lock');
        await postPoints(tx, {
          customerId,
          amount: earned,
          reason: POINT_REASONS.shortsWatch,
          refType: 'short',
          refId: String(shortId),
          idempotencyKey: `shorts-watch:${viewId}`,
          at: now,
        });
        // The claim that fills the day's cap tells the customer (docs/rules/notifications.md#N2), once a day.
        if (total >= LIMITS.dailyWatchPointLimit) {
          await recordEvent(
            tx,
            { type: 'shorts.watch_cap_reached', customerId, date: today, limit: LIMITS.dailyWatchPointLimit },
            now,
          );
        }
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

export type WatchPointsService = ReturnType<typeof createWatchPointsService>;
