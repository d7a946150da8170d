import { and, eq, gt, lte, or, sql } from 'drizzle-orm';
import { announceChange } from '../../cache-changes';
import type { Db } from '../../db/client';
import { shortRankClock } from '../../db/schema';
import { withTx } from '../../db/tx';
import type { Cache } from '../../lib/cache-home';
import type { Clock } from '../../lib/clock';
import type { ShortRow } from './short-items';

/** How often the freshness term is re-evaluated (docs/rules/shorts.md#S1; stored scores, migration 0003). */
export const RANK_REFRESH_MS = 60_000;
/** How old a checked ranking may be and still serve while its refresh runs in the background. */
export const RANK_STALE_MS = 2 * RANK_REFRESH_MS;

/** The sort key of the last item of a page, exactly as stored (text keeps float and µs precision). */
export interface RankCursor {
  score: string;
  createdAt: string;
  id: number;
}

/** A ranked page's rows as read (shared by every reader; personalised afterwards). */
export interface RankedPage {
  rows: ShortRow[];
  hasNext: boolean;
}

export interface RankingCaches {
  feedPages: Cache<string, RankedPage>;
  feedCursors: Cache<string, RankCursor>;
}

/**
 * The stored feed ranking. Triggers keep each playable short's base score exact on every change; this moves
 * the one instant all freshness terms are evaluated at (`short_rank_clock`) forward once a minute by the
 * app's clock, on a timer and lazily on reads, so no request scores every short. With several instances a
 * conditional update lets one of them do each minute's refresh, announced to all as a ranking change.
 *
 * Its pages and where each page ended (keyset paging behind the page number: page n+1 continues from page
 * n's last sort key through the index instead of skipping n·size rows) live in the app's caches
 * (`caches.ts`), dropped whenever the ranking changes.
 */
export function createRanking(db: Db, clock: Clock, caches: RankingCaches, rankingChanged: () => void) {
  let checkedAt = Number.NEGATIVE_INFINITY;
  let refreshing: Promise<void> | undefined;
  const keyOf = (size: number, page: number) => `${size}:${page}`;

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
      await announceChange(tx, 'ranking');
      return true;
    });
    if (moved) rankingChanged();
  }

  return {
    /**
     * At most one check a minute per process (by the app clock); cheap in between. A ranking checked less
     * than `RANK_STALE_MS` ago still serves while the next refresh runs (the scores it would move change by
     * under 0.002 a minute): no reader waits on a refresh in a running instance. One older than that (a
     * fresh process, a clock that jumped) is brought up to date before it is read.
     */
    async ensureFresh(): Promise<void> {
      const now = clock.now().getTime();
      const age = Math.abs(now - checkedAt);
      if (age < RANK_REFRESH_MS) return;
      checkedAt = now;
      refreshing ??= refresh().finally(() => {
        refreshing = undefined;
      });
      if (age < RANK_STALE_MS) {
        refreshing.catch(() => undefined);
        return;
      }
      await refreshing;
    },

    /** Resolves once a refresh under way has finished (closing waits for it). */
    async settled(): Promise<void> {
      await refreshing?.catch(() => undefined);
    },

    cursorAfter(size: number, page: number): RankCursor | undefined {
      return caches.feedCursors.get(keyOf(size, page));
    },

    /** Which ranking a read started on: what was read before a change must not be kept after it. */
    generation(): { cursors: number; pages: number } {
      return { cursors: caches.feedCursors.generation(), pages: caches.feedPages.generation() };
    },

    remember(size: number, page: number, cursor: RankCursor, readOn: { cursors: number }): void {
      caches.feedCursors.set(keyOf(size, page), cursor, readOn.cursors);
    },

    /** A page's rows as read from the ranking, shared by every reader while its cache keeps it. */
    cachedPage(size: number, page: number): RankedPage | undefined {
      return caches.feedPages.get(keyOf(size, page));
    },

    keepPage(size: number, page: number, value: RankedPage, readOn: { pages: number }): void {
      caches.feedPages.set(keyOf(size, page), value, readOn.pages);
    },
  };
}

export type Ranking = ReturnType<typeof createRanking>;
