import { type FeedResponse, myReaction, shortItem, subscriptionStatus } from '@ohgood/contract/shorts';
import { JsonText } from '../../http/json-text';
import { ok } from '../../lib/envelope';
import { publicItemOf, type ShortRow, type ViewerFields, viewerFieldsOf } from './short-items';
import type { ViewerFacts } from './viewer-state';

/** An item without its viewer fields, checked (and stripped of anything undeclared) like the whole body. */
const publicItem = shortItem.omit({ myReaction: true, subscriptionStatus: true });

/**
 * Each row's public part as JSON text, an object left open for the viewer fields. Rows come from the ranking's
 * page cache, the same objects until the page is re-read, so each is checked and written once.
 */
const openItems = new WeakMap<ShortRow, Buffer>();

function openItemOf(row: ShortRow): Buffer {
  let bytes = openItems.get(row);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(publicItem.encode(publicItemOf(row))).slice(0, -1));
    openItems.set(row, bytes);
  }
  return bytes;
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

/** `{"success":true,"message":"OK","data":[` — the envelope up to its items. */
const DATA_OPEN = Buffer.from(`${JSON.stringify(ok(null)).replace(/,"data":null}$/, '')},"data":[`);
const COMMA = Buffer.from(',');
const DATA_CLOSE = Buffer.from('],');

export interface FeedPageRows {
  rows: ShortRow[];
  page: number;
  size: number;
  hasNext: boolean;
  mediaBaseUrl: string;
}

/**
 * The feed's body (`feedResponse`: the envelope, `data` the items, paging beside it) as JSON text: each item
 * is its row's cached public part plus the viewer's two fields, so a signed-in page costs no per-request
 * validation or serialization of the whole body (ADR 0108). `feed-json.test.ts` holds it equal to the
 * schema-checked body.
 */
export function feedPageJson(
  { rows, page, size, hasNext, mediaBaseUrl }: FeedPageRows,
  viewer: number | null,
  facts: ViewerFacts,
): JsonText<FeedResponse> {
  const parts: Buffer[] = [DATA_OPEN];
  rows.forEach((row, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(openItemOf(row), ...viewerMembers(viewerFieldsOf(row, viewer, facts)));
  });
  parts.push(DATA_CLOSE, Buffer.from(JSON.stringify({ page, size, hasNext, mediaBaseUrl }).slice(1)));
  return new JsonText(Buffer.concat(parts));
}
