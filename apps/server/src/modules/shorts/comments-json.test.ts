import { commentsResponse } from '@ohgood/contract/shorts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ok } from '../../lib/envelope';
import { type CommentRow, commentItemOf, commentsJson } from './comments-json';

const text = fc.string({ unit: 'grapheme', maxLength: 20 });
const row: fc.Arbitrary<CommentRow> = fc.record({
  id: fc.integer({ min: 1, max: 1_000 }),
  parentId: fc.option(fc.integer({ min: 1, max: 1_000 }), { nil: null }),
  content: text,
  deletedAt: fc.option(fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }), {
    nil: null,
  }),
  createdAt: fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }),
  customerId: fc.integer({ min: 1, max: 6 }),
  nickname: text,
  profileImg: fc.option(text, { nil: null }),
});
const viewer = fc.option(fc.integer({ min: 1, max: 6 }), { nil: null });

/** The body as the generic path builds it: items, envelope, then the endpoint's schema check. */
const checkedBody = (rows: CommentRow[], who: number | null) =>
  commentsResponse.parse(ok(rows.map((r) => commentItemOf(r, who))));

describe('commentsJson', () => {
  it('is the schema-checked comment list, for any rows and viewers, one after the other on the same rows', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 12 }), fc.array(viewer, { minLength: 1, maxLength: 3 }), (rows, who) => {
        // The same row objects for every viewer, as the comment-rows cache hands them out.
        for (const one of who) expect(JSON.parse(commentsJson(rows, one).text)).toStrictEqual(checkedBody(rows, one));
      }),
      { numRuns: 200 },
    );
  });

  it("marks only the viewer's own live comments deletable, from the same cached rows", () => {
    const [first] = fc.sample(row, { numRuns: 1, seed: 5 }) as [CommentRow];
    const mine = { ...first, customerId: 3, deletedAt: null };
    const gone = { ...first, id: first.id + 1, customerId: 3, deletedAt: new Date('2026-01-01') };
    const deletable = (who: number | null) =>
      JSON.parse(commentsJson([mine, gone], who).text).data.map((c: { deletable: boolean }) => c.deletable);
    expect(deletable(3)).toEqual([true, false]);
    expect(deletable(4)).toEqual([false, false]);
    expect(deletable(null)).toEqual([false, false]);
    expect(deletable(3)).toEqual([true, false]);
  });

  it('never writes a field the contract does not declare', () => {
    const [first] = fc.sample(row, { numRuns: 1, seed: 9 }) as [CommentRow];
    const leaky = { ...first, email: 'secret@example.com' } as CommentRow;
    const json = commentsJson([leaky], null);
    expect(json.text).not.toContain('secret@example.com');
    expect(JSON.parse(json.text).data[0]).not.toHaveProperty('email');
  });
});
