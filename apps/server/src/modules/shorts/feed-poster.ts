import { LIMITS } from '@ohgood/contract/limits';
import { mediaUrl } from '@ohgood/contract/media-url';
import type { FeedPage, FeedQuery, ShortItem } from '@ohgood/contract/shorts';

interface FeedReader {
  feed(query: FeedQuery, viewer: number | null): Promise<FeedPage>;
  one(id: number, viewer: number | null): Promise<ShortItem>;
  mediaBaseUrl: string;
}

/**
 * The poster the feed page shows first, for the page's HTML (`http/page-html.ts`): the linked short's
 * (`?shortsId=`) or the top of the ranked first page — the same page, from the same cache, that the app
 * asks for next. Posters are the feed's largest paint; naming it early lets it load with the app.
 */
export function feedPosterOf(shorts: FeedReader) {
  return async (path: string, query: URLSearchParams): Promise<string | null> => {
    if (path !== '/shorts/feeds') return null;
    const linked = Number(query.get('shortsId'));
    const first =
      Number.isSafeInteger(linked) && linked > 0
        ? await shorts.one(linked, null)
        : (await shorts.feed({ page: 1, size: LIMITS.feedPageSize }, null)).data[0];
    return mediaUrl(shorts.mediaBaseUrl, first?.thumbnail) ?? null;
  };
}
