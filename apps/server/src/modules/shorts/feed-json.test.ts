import { feedResponse, type MyReaction } from '@ohgood/contract/shorts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ok } from '../../lib/envelope';
import { feedPageJson } from './feed-json';
import { publicItemOf, type ShortRow, viewerFieldsOf } from './short-items';
import type { ViewerFacts } from './viewer-state';

const text = fc.string({ unit: 'grapheme', maxLength: 20 });
const row: fc.Arbitrary<ShortRow> = fc.record({
  id: fc.integer({ min: 1, max: 50 }),
  title: text,
  content: text,
  videoKey: text,
  thumbnailKey: fc.option(text, { nil: null }),
  durationMs: fc.integer({ min: 0, max: 600_000 }),
  likeCount: fc.nat(),
  commentCount: fc.nat(),
  createdAt: fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }),
  customerId: fc.integer({ min: 1, max: 8 }),
  nickname: text,
  profileImg: fc.option(text, { nil: null }),
});
const facts: fc.Arbitrary<ViewerFacts> = fc.record({
  reactions: fc
    .array(fc.tuple(fc.integer({ min: 1, max: 50 }), fc.constantFrom<MyReaction>('like', 'dislike', 'none')))
    .map((pairs) => new Map(pairs)),
  subscribed: fc.array(fc.integer({ min: 1, max: 8 })).map((ids) => new Set(ids)),
});
const paging: fc.Arbitrary<Paging> = fc.record({
  page: fc.integer({ min: 1, max: 10_000 }),
  size: fc.integer({ min: 1, max: 50 }),
  hasNext: fc.boolean(),
  mediaBaseUrl: text,
});

/** The body as the generic path builds it: items, envelope, then the endpoint's schema check. */
type Paging = { page: number; size: number; hasNext: boolean; mediaBaseUrl: string };

function checkedBody(rows: ShortRow[], p: Paging, viewer: number | null, f: ViewerFacts) {
  const data = rows.map((r) => ({ ...publicItemOf(r), ...viewerFieldsOf(r, viewer, f) }));
  return feedResponse.parse({ ...ok(data), ...p });
}

/** The rows as a ranked page with its paging, as the feed service hands them over. */
const pageOf = (rows: ShortRow[], { hasNext, ...p }: Paging) => ({ ranked: { rows, hasNext }, ...p });

describe('feedPageJson', () => {
  it('is the schema-checked feed body, for any rows, viewer and facts', () => {
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 12 }),
        paging,
        fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }),
        facts,
        (rows, p, viewer, f) => {
          const json = feedPageJson(pageOf(rows, p), viewer, f).text;
          expect(JSON.parse(json)).toStrictEqual(checkedBody(rows, p, viewer, f));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('answers each viewer their own fields from the same cached rows', () => {
    const [first] = fc.sample(row, { numRuns: 1, seed: 7 }) as [ShortRow];
    const shortRow = { ...first, customerId: 3 };
    const page = pageOf([shortRow], { page: 1, size: 10, hasNext: false, mediaBaseUrl: '/media' });
    const liker = { reactions: new Map<number, MyReaction>([[shortRow.id, 'like']]), subscribed: new Set([3]) };
    const none = { reactions: new Map<number, MyReaction>(), subscribed: new Set<number>() };
    const itemFor = (viewer: number | null, f: ViewerFacts) => JSON.parse(feedPageJson(page, viewer, f).text).data[0];
    expect(itemFor(5, liker)).toMatchObject({ myReaction: 'like', subscriptionStatus: 'SUBSCRIBED' });
    expect(itemFor(null, none)).toMatchObject({ myReaction: 'none', subscriptionStatus: 'NOT_SUBSCRIBED' });
    expect(itemFor(3, none)).toMatchObject({ myReaction: 'none', subscriptionStatus: 'SELF' });
  });

  it("writes exactly the rows a viewer's copy of a cached page holds, after the whole page was written", () => {
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 12 }),
        paging,
        fc.integer({ min: 1, max: 8 }),
        facts,
        (rows, p, blocked, f) => {
          const page = pageOf(rows, p);
          feedPageJson(page, null, f);
          // As the feed service takes a viewer's blocked creators out of a cached page (feed-service.ts).
          const kept = rows.filter((r) => r.customerId !== blocked);
          const copy = { ...page, ranked: { ...page.ranked, rows: kept } };
          expect(JSON.parse(feedPageJson(copy, 5, f).text)).toStrictEqual(checkedBody(kept, p, 5, f));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('never writes a field the contract does not declare', () => {
    const [first] = fc.sample(row, { numRuns: 1, seed: 11 }) as [ShortRow];
    const leaky = { ...first, passwordHash: 'secret' } as ShortRow;
    const none = { reactions: new Map<number, MyReaction>(), subscribed: new Set<number>() };
    const json = feedPageJson(pageOf([leaky], { page: 1, size: 10, hasNext: false, mediaBaseUrl: '' }), null, none);
    expect(json.text).not.toContain('secret');
    expect(JSON.parse(json.text).data[0]).not.toHaveProperty('passwordHash');
  });

  it('refuses a viewer field outside its enum instead of writing it', () => {
    const [first] = fc.sample(row, { numRuns: 1, seed: 13 }) as [ShortRow];
    const odd = { reactions: new Map([[first.id, 'love' as MyReaction]]), subscribed: new Set<number>() };
    expect(() =>
      feedPageJson(pageOf([first], { page: 1, size: 10, hasNext: false, mediaBaseUrl: '' }), 1, odd),
    ).toThrow(/outside the contract/);
  });
});
