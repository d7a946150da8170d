import type { DomainEvent } from '@ohgood/contract/domain-events';
import { kstDate } from '@ohgood/contract/kst';
import { LIMITS } from '@ohgood/contract/limits';
import { and, eq, sql } from 'drizzle-orm';
import { type CtePart, withParts } from '../../db/cte';
import { customerLockedPart } from '../../db/locks';
import { shorts, shortWatchDaily } from '../../db/schema';
import { builtOnce, type Executor, rowsOf, type Tx } from '../../db/tx';
import { eventsInsertQuery } from '../../events/record-event';
import { POINT_REASONS, pointPostingParts } from '../points/ledger';
import { playable } from './playable-short';

/** The SQL of watch points: a claim's reads and locks and its one write; the services beside it decide. */

/**
 * A paying claim's first statement, in one round trip: the customer's row locked (step 1 of the lock order,
 * db/locks.ts) with their point balance; the day's row created if missing and locked either way (an upsert
 * that changes nothing locks the row it meets); and, after both, the customer's oldest unpaid view of the
 * short that began by `latestStart`, locked (a concurrent claim skips it). No row: the customer does not
 * exist. No view: `viewId` null. Times come as epoch ms (a raw statement's timestamps are text).
 */
export const lockClaimBasis = builtOnce<{
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
export interface WatchPayment {
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
export async function writeWatchPayment(tx: Tx, payment: WatchPayment): Promise<number | null> {
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
export const readClaimedShort = builtOnce<{ durationMs: number; credited: number }>(
  sql`select ${shorts.durationMs} as "durationMs",
        coalesce((select ${shortWatchDaily.total} from ${shortWatchDaily}
                   where ${shortWatchDaily.customerId} = ${sql.placeholder('customerId')}::int
                     and ${shortWatchDaily.kstDate} = ${sql.placeholder('today')}::date), 0) as credited
        from ${shorts} where ${playable(sql.placeholder('shortId'))}`,
);

/** The watch points credited to the customer on the KST day `date`. */
export async function creditedOn(db: Executor, customerId: number, date: string): Promise<number> {
  const [daily] = await db
    .select({ total: shortWatchDaily.total })
    .from(shortWatchDaily)
    .where(and(eq(shortWatchDaily.customerId, customerId), eq(shortWatchDaily.kstDate, date)));
  return daily?.total ?? 0;
}
