import type { DomainEvent } from '@ohgood/contract/domain-events';
import { kstDate } from '@ohgood/contract/kst';
import { LIMITS } from '@ohgood/contract/limits';
import type { EarnResult } from '@ohgood/contract/shorts';
import { minimumWatchSeconds, SHORTS_MSG, watchPoints } from '@ohgood/contract/shorts-rules';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type CtePart, withParts } from '../../db/cte';
import { customerLockedPart, customerNotFound } from '../../db/locks';
import { shorts, shortWatchDaily } from '../../db/schema';
import { builtOnce, rowsOf, type Tx, withTx } from '../../db/tx';
import { eventsInsertQuery } from '../../events/record-event';
import type { Clock } from '../../lib/clock';
import { unprocessable } from '../../lib/errors';
import { POINT_REASONS, pointPostingParts } from '../points/ledger';
import { playable, shortNotFound } from './playable-short';
import { openView, startWatches } from './watch-starts';

/**
 * A paying claim's first statement, in one round trip: the customer's row locked (step 1 of the lock order,
 * db/locks.ts) with their point balance; the day's row created if missing and locked either way (an upsert
 * that changes nothing locks the row it meets); and, after both, the customer's oldest unpaid view of the
 * short that began by `latestStart`, locked (a concurrent claim skips it). No row: the customer does not
 * exist. No view: `viewId` null. Times come as epoch ms (a raw statement's timestamps are text).
 */
const lockClaimBasis = builtOnce<{
  total: number;
  watchedUntilMs: number | null;
  balance: number;
  viewId: number | null;
  viewStartedMs: number | null;
}>(
  withParts(
    [
      customerLockedPart(sql`${sql.placeholder('customerId')}::int`),
      {
        name: 'day',
        query: sql`insert into ${shortWatchDaily} (customer_id, kst_date, total)
          select id, ${sql.placeholder('today')}::date, 0 from customer_locked
          on conflict (customer_id, kst_date) do update set total = ${shortWatchDaily.total}
          returning total, watched_until`,
      },
      {
        // Joined to the customer's locked row, so the view is locked after it (step 5 after step 1).
        name: 'oldest_view',
        query: sql`select v.id, v.started_at from short_views v join customer_locked c on c.id = v.customer_id
          where v.short_id = ${sql.placeholder('shortId')}::int
            and v.rewarded_at is null
            and v.started_at <= ${sql.placeholder('latestStart')}::timestamptz
          order by v.started_at
          limit 1
          for update of v skip locked`,
      },
    ],
    sql`select d.total, floor(extract(epoch from d.watched_until) * 1000)::float8 as "watchedUntilMs",
          c.point_balance as balance, v.id as "viewId",
          floor(extract(epoch from v.started_at) * 1000)::float8 as "viewStartedMs"
        from day d cross join customer_locked c left join oldest_view v on true`,
  ),
);

/** A claim's decided payment: the view it pays and the points, under the locks `lockClaimBasis` took. */
interface WatchPayment {
  customerId: number;
  shortId: number;
  viewId: number;
  /** Where this watch's paid seconds end: after its start and after the time already paid. */
  paidUntil: Date;
  earned: number;
  /** The day's total and the customer's point balance before this claim, read under their locks. */
  dayTotal: number;
  balance: number;
  at: Date;
}

/**
 * Writes a decided claim in one statement: the view marked paid, the day's total and the end of its paid time
 * (real seconds are paid once: the next claim must fit after them), the ledger row and balance
 * (`pointPostingParts`), and the events: `points.posted`, and `shorts.watch_cap_reached` for the claim that
 * fills the day's cap (docs/rules/notifications.md#N2). Returns the day's new total, or null when the view or
 * the day's row was not as read (a bug: the caller holds their locks).
 */
async function writeWatchPayment(tx: Tx, payment: WatchPayment): Promise<number | null> {
  const { customerId, shortId, viewId, earned, at, paidUntil } = payment;
  const total = payment.dayTotal + earned;
  const today = kstDate(at);
  const entry = {
    customerId,
    amount: earned,
    reason: POINT_REASONS.shortsWatch,
    refType: 'short' as const,
    refId: String(shortId),
    idempotencyKey: `shorts-watch:${viewId}`,
    at,
  };
  const events: DomainEvent[] = [
    {
      type: 'points.posted',
      customerId,
      amount: earned,
      reason: entry.reason,
      refType: entry.refType,
      refId: entry.refId,
      balance: payment.balance + earned,
      key: entry.idempotencyKey,
    },
  ];
  const cap = LIMITS.dailyWatchPointLimit;
  if (total >= cap) events.push({ type: 'shorts.watch_cap_reached', customerId, date: today, limit: cap });
  const parts: CtePart[] = [
    {
      name: 'paid_view',
      query: sql`update short_views set rewarded_at = ${at.toISOString()}::timestamptz
        where id = ${viewId}::int and rewarded_at is null returning id`,
    },
    {
      name: 'paid_day',
      query: sql`update ${shortWatchDaily}
          set total = ${total}::int,
              watched_until = ${paidUntil.toISOString()}::timestamptz
        where ${shortWatchDaily.customerId} = ${customerId}::int and ${shortWatchDaily.kstDate} = ${today}::date
          and ${shortWatchDaily.total} = ${payment.dayTotal}::int
        returning total`,
    },
    ...pointPostingParts(tx, [entry]),
  ];
  const recorded = eventsInsertQuery(
    tx,
    events.map((event) => ({ event, at })),
  );
  if (recorded) parts.push({ name: 'events', query: recorded.getSQL() });
  const [row] = await rowsOf<{ paid: number; total: number | null }>(
    tx,
    withParts(parts, sql`select (select count(*)::int from paid_view) as paid, (select total from paid_day) as total`),
  );
  return row?.paid === 1 ? (row.total ?? null) : null;
}

/** A claim's first look: the playable short's length and the watch points the customer has today (no row: no such short). */
const readClaimedShort = builtOnce<{ durationMs: number; credited: number }>(
  sql`select ${shorts.durationMs} as "durationMs",
        coalesce((select ${shortWatchDaily.total} from ${shortWatchDaily}
                   where ${shortWatchDaily.customerId} = ${sql.placeholder('customerId')}::int
                     and ${shortWatchDaily.kstDate} = ${sql.placeholder('today')}::date), 0) as credited
        from ${shorts} where ${playable(sql.placeholder('shortId'))}`,
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

export type WatchPointsService = ReturnType<typeof createWatchPointsService>;
