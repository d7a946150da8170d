import { type FeedResponse, myReaction, shortItem, subscriptionStatus } from '@ohgood/contract/shorts';
import { type JsonText, okListText } from '../../http/json-text';
import type { RankedPage } from './ranking';
import { publicItemOf, type ShortRow, type ViewerFields, viewerFieldsOf } from './short-items';
import type { ViewerFacts } from './viewer-state';

/** An item without its viewer fields, checked (and stripped of anything undeclared) like the whole body. */
const publicItem = shortItem.omit({ myReaction: true, subscriptionStatus: true });

/** A row's public part as JSON text, an object left open for the viewer fields. */
const openItemOf = (row: ShortRow): Buffer =>
  Buffer.from(JSON.stringify(publicItem.encode(publicItemOf(row))).slice(0, -1));

/**
 * Each row's public part, kept by the row object: a page from the ranking's page cache holds the same row
 * objects until it is dropped, so each item is checked and written once per cached page. Kept by row, not by
 * page, so a page with a viewer's blocked creators taken out (a copy holding some of the rows) still gets
 * each row's own item.
 */
const openItems = new WeakMap<ShortRow, Buffer>();

function openItemsOf(rows: readonly ShortRow[]): Buffer[] {
  return rows.map((row) => {
    let item = openItems.get(row);
    if (!item) {
      item = openItemOf(row);
      openItems.set(row, item);
    }
    return item;
  });
}

/** The two viewer fields as JSON members (closing the item), from their enums' own values only. */
const reactionMembers = new Map(
  myReaction.options.map((value) => [value, Buffer.from(`,"myReaction":${JSON.stringify(value)}`)]),
);
const subscriptionMembers = new Map(
  subscriptionStatus.options.map((value) => [value, Buffer.from(`,"subscriptionStatus":${JSON.stringify(value)}}`)]),
);

function viewerMembers({ myReaction, subscriptionStatus }: ViewerFields): [Buffer, Buffer] {
  const reaction = reactionMembers.get(myReaction);
  const subscription = subscriptionMembers.get(subscriptionStatus);
  if (reaction === undefined || subscription === undefined) {
    throw new Error(`feed item: viewer fields outside the contract (${myReaction}, ${subscriptionStatus})`);
  }
  return [reaction, subscription];
}

export interface FeedPageRows {
  ranked: RankedPage;
  page: number;
  size: number;
  mediaBaseUrl: string;
}

/**
 * The feed's body (`feedResponse`: the envelope, `data` the items, paging beside it) as JSON text: each item
 * is its row's cached public part plus the viewer's two fields, so a signed-in page costs no per-request
 * validation or serialization of the whole body (ADR 0108). `feed-json.test.ts` holds it equal to the
 * schema-checked body.
 */
export function feedPageJson(
  { ranked, page, size, mediaBaseUrl }: FeedPageRows,
  viewer: number | null,
  facts: ViewerFacts,
): JsonText<FeedResponse> {
  const items = openItemsOf(ranked.rows);
  return okListText(
    ranked.rows.map((row, i) => [items[i] as Buffer, ...viewerMembers(viewerFieldsOf(row, viewer, facts))]),
    { page, size, hasNext: ranked.hasNext, mediaBaseUrl },
  );
}
