import { and, eq, gt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { shortRankClock } from '../../db/schema';
import { withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';

/** How often the freshness term is re-evaluated (docs/rules/shorts.md#S1; stored scores, migration 0003). */
export const RANK_REFRESH_MS = 60_000;

/** The sort key of the last item of a page, exactly as stored (text keeps float and µs precision). */
export interface RankCursor {
  score: string;
  createdAt: string;
  id: number;
}

/**
 * The stored feed ranking. Triggers keep each playable short's base score exact on every change; this moves
 * the one instant all freshness terms are evaluated at (`short_rank_clock`) forward once a minute by the
 * app's clock, on a timer and lazily on reads, so no request scores every short. With several instances a
 * conditional update lets one of them do each minute's refresh.
 *
 * It also remembers where each feed page ended (keyset paging behind the page number): page n+1 continues
 * from page n's last sort key through the index instead of skipping n·size rows. The cursors are forgotten
 * whenever the ranking changes.
 */
export function createRanking(db: Db, clock: Clock, pageCacheMs = 0) {
  let checkedAt = Number.NEGATIVE_INFINITY;
  let generation = 0;
  let refreshing: Promise<void> | undefined;
  const cursors = new Map<string, RankCursor>();
  const MAX_CURSORS = 10_000;
  const pages = new Map<string, { value: unknown; expires: number }>();
  const forget = () => {
    generation += 1;
    cursors.clear();
    pages.clear();
  };

  async function refresh(): Promise<void> {
    const now = clock.now();
    const moved = await withTx(db, async (tx) => {
      const at = sql`${now.toISOString()}::timestamptz`;
      const claimed = await tx
        .update(shortRankClock)
        .set({ decayAt: now })
        .where(
          and(
            eq(shortRankClock.id, 1),
            or(lte(shortRankClock.decayAt, sql`${at} - interval '60 seconds'`), gt(shortRankClock.decayAt, at)),
          ),
        )
        .returning({ id: shortRankClock.id });
      if (claimed.length === 0) return false;
      // Rows older than 60 days carry freshness 0 (below 1e-8); the extra day zeroes those just past it.
      await tx.execute(sql`
        update short_ranks set score = base + short_rank_freshness(${at}, created_at)
        where created_at > ${at} - interval '61 days'`);
      await tx.execute(sql`select pg_notify('feed_changed', '')`);
      return true;
    });
    if (moved) forget();
  }

  return {
    /** At most one check a minute per process (by the app clock); cheap in between. */
    async ensureFresh(): Promise<void> {
      const now = clock.now().getTime();
      if (Math.abs(now - checkedAt) < RANK_REFRESH_MS) return;
      checkedAt = now;
      refreshing ??= refresh().finally(() => {
        refreshing = undefined;
      });
      await refreshing;
    },

    cursorAfter(size: number, page: number): RankCursor | undefined {
      return cursors.get(`${size}:${page}`);
    },

    /** Which ranking a read started on: a cursor read before a change must not be kept after it. */
    generation(): number {
      return generation;
    },

    remember(size: number, page: number, cursor: RankCursor, readOn: number): void {
      if (readOn !== generation) return;
      if (cursors.size >= MAX_CURSORS) cursors.clear();
      cursors.set(`${size}:${page}`, cursor);
    },

    /**
     * A page's rows as read from the ranking, shared by every reader for `pageCacheMs` (personalisation is
     * added per reader afterwards); dropped with the cursors on any change.
     */
    cachedPage<T>(size: number, page: number): T | undefined {
      const hit = pages.get(`${size}:${page}`);
      if (!hit || hit.expires <= Date.now()) return undefined;
      return hit.value as T;
    },

    keepPage(size: number, page: number, value: unknown, readOn: number): void {
      if (pageCacheMs <= 0 || readOn !== generation) return;
      if (pages.size >= MAX_CURSORS) pages.clear();
      pages.set(`${size}:${page}`, { value, expires: Date.now() + pageCacheMs });
    },

    /** The order changed (a like, a comment, a new short, a refresh elsewhere): page ends moved. */
    forgetCursors(): void {
      forget();
    },
  };
}

export type Ranking = ReturnType<typeof createRanking>;
