import type { FeedPage, FeedQuery, FeedResponse, ShortItem } from '@ohgood/contract/shorts';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { customers, shortRanks, shorts } from '../../db/schema';
import type { JsonText } from '../../http/json-text';
import { singleFlight } from '../../lib/single-flight';
import type { BlockedBy } from '../safety/service';
import { type FeedPageRows, feedPageJson } from './feed-json';
import { shortNotFound } from './playable-short';
import type { RankedPage, Ranking } from './ranking';
import { keywordFilter } from './search';
import { shortColumns, toShortItems, viewerFactsOf } from './short-items';
import type { ViewerState } from './viewer-state';

/** Reading playable shorts: the ranked feed (optionally filtered by a keyword) and one short by id. */
export function createFeedService(
  db: Db,
  mediaBaseUrl: string,
  ranking: Ranking,
  viewerState: ViewerState,
  blockedBy: BlockedBy,
) {
  /**
   * A ranked page is shared by every viewer (and cached); a viewer's blocked creators (docs/rules/shorts.md#S13)
   * are taken out of it for them, so pages keep their places and may come out shorter.
   */
  async function viewersPage(query: FeedQuery, viewer: number | null): Promise<FeedPageRows> {
    const page = await rankedPage(query);
    const blocked = await blockedBy(viewer);
    if (blocked.size === 0) return page;
    const rows = page.ranked.rows.filter((row) => !blocked.has(row.customerId));
    return { ...page, ranked: { ...page.ranked, rows } };
  }

  /**
   * The ranking of docs/rules/shorts.md#S1, from the stored scores (migration 0003, `ranking.ts`): score,
   * then date, then id, all descending, through the index. Page n+1 continues from page n's last key when
   * it is known. Unfiltered pages come from the ranking's page cache (the same row objects while it holds).
   */
  const samePage = singleFlight<RankedPage>();

  async function rankedPage(query: FeedQuery): Promise<FeedPageRows> {
    await ranking.ensureFresh();
    const keyword = query.keyword?.trim();
    const generation = ranking.generation();
    // Built only when the page is read: a page the ranking's cache holds costs no statement building.
    const read = async (): Promise<RankedPage> => {
      const cursor = !keyword && query.page > 1 ? ranking.cursorAfter(query.size, query.page - 1) : undefined;
      const conditions = [eq(shorts.status, 'READY')];
      const skip = cursor ? 0 : (query.page - 1) * query.size;
      if (keyword) {
        conditions.push(keywordFilter(keyword));
      } else {
        // The page's ids first, from the ranking's index alone (it holds only playable shorts); only those
        // rows are joined. A deep page by offset then skips index entries, not joined rows (docs/performance.md).
        const after = cursor
          ? sql`where (r.score, r.created_at, r.short_id) < (${cursor.score}::float8, ${cursor.createdAt}::timestamptz, ${cursor.id})`
          : sql``;
        conditions.push(
          sql`${shortRanks.shortId} in (select r.short_id from short_ranks r ${after}
            order by r.score desc, r.created_at desc, r.short_id desc limit ${query.size + 1} offset ${skip})`,
        );
      }
      const rows = await db
        .select({
          ...shortColumns,
          rankScore: sql<string>`${shortRanks.score}::text`,
          rankCreatedAt: sql<string>`${shortRanks.createdAt}::text`,
        })
        .from(shortRanks)
        .innerJoin(shorts, eq(shorts.id, shortRanks.shortId))
        .innerJoin(customers, eq(customers.id, shorts.customerId))
        .where(and(...conditions))
        .orderBy(desc(shortRanks.score), desc(shortRanks.createdAt), desc(shortRanks.shortId))
        .limit(query.size + 1)
        .offset(keyword ? skip : 0);
      const hasNext = rows.length > query.size;
      const page = rows.slice(0, query.size);
      const last = page.at(-1);
      if (!keyword && hasNext && last) {
        const end = { score: last.rankScore, createdAt: last.rankCreatedAt, id: last.id };
        ranking.remember(query.size, query.page, end, generation);
      }
      const fresh = { rows: page, hasNext };
      if (!keyword) ranking.keepPage(query.size, query.page, fresh, generation);
      return fresh;
    };
    // Readers that miss the same page of the same ranking together (right after a refresh drops every page)
    // share one read of it.
    const ranked = keyword
      ? await read()
      : (ranking.cachedPage(query.size, query.page) ??
        (await samePage(`${query.size}:${query.page}:${generation.pages}:${generation.cursors}`, read)));
    return { ranked, page: query.page, size: query.size, mediaBaseUrl };
  }

  return {
    mediaBaseUrl,

    /** A feed page as items. */
    async feed(query: FeedQuery, viewer: number | null): Promise<FeedPage> {
      const { ranked, ...paging } = await viewersPage(query, viewer);
      return { data: await toShortItems(viewerState, ranked.rows, viewer), hasNext: ranked.hasNext, ...paging };
    },

    /**
     * The same page as the HTTP body's JSON text (`feed-json.ts`), for the feed routes, with the ids it
     * serves (a served short starts a watch, docs/rules/shorts.md#S16).
     */
    async feedJson(
      query: FeedQuery,
      viewer: number | null,
    ): Promise<{ json: JsonText<FeedResponse>; shortIds: number[] }> {
      const page = await viewersPage(query, viewer);
      const json = feedPageJson(page, viewer, await viewerFactsOf(viewerState, page.ranked.rows, viewer));
      return { json, shortIds: page.ranked.rows.map((row) => row.id) };
    },

    async one(id: number, viewer: number | null): Promise<ShortItem> {
      const rows = await db
        .select(shortColumns)
        .from(shorts)
        .innerJoin(customers, eq(customers.id, shorts.customerId))
        .where(and(eq(shorts.id, id), eq(shorts.status, 'READY')));
      const creator = rows[0]?.customerId;
      if (creator === undefined || (await blockedBy(viewer)).has(creator)) throw shortNotFound();
      const [item] = await toShortItems(viewerState, rows, viewer);
      return item as ShortItem;
    },
  };
}

export type FeedService = ReturnType<typeof createFeedService>;
