import { eq, inArray, sql } from 'drizzle-orm';
import { getChoseong } from 'es-hangul';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, shorts } from '../../db/schema';
import { CacheHome } from '../../lib/cache-home';
import { countingDb } from '../../test/counting-db';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { insertShorts } from '../../test/shorts-fixture';
import { createSearchService, type SearchService } from './search';

let h: Harness;
let creator: { token: string; customerId: number };
let other: { token: string; customerId: number };
const base = Date.parse('2026-11-01T00:00:00Z');
const at = (minutes: number) => new Date(base + minutes * 60_000);

type Hit = { shortsId: number; title: string; score: number; date: string };
type Page = {
  items: Hit[];
  hasNext: boolean;
  nextCursor: { lastId: number; lastDate: string; lastScore: number } | null;
};

async function search(q: string, extra = ''): Promise<Page> {
  const res = await h.app.inject({
    method: 'GET',
    url: `/api/public/shorts/search?q=${encodeURIComponent(q)}${extra}`,
  });
  expect(res.statusCode, res.body).toBe(200);
  // The body is the page itself: items, nextCursor and hasNext at the top.
  return res.json() as Page;
}
const titles = async (q: string) => (await search(q, '&limit=50')).items.map((i) => i.title).sort();
const next = (c: NonNullable<Page['nextCursor']>) =>
  `&limit=8&lastId=${c.lastId}&lastDate=${encodeURIComponent(c.lastDate)}&lastScore=${c.lastScore}`;

beforeAll(async () => {
  h = await createHarness();
  [creator, other] = await Promise.all([h.signUp(), h.signUp()]);
  await h.database.db.update(customers).set({ nickname: '라떼장인' }).where(eq(customers.id, other.customerId));
  await insertShorts(h.database.db, creator.customerId, [
    { title: '아침 커피 한 잔', content: '오늘도 출근', createdAt: at(1) },
    { title: '라떼 만들기', content: '우유 거품 #커피', createdAt: at(2) },
    { title: 'Latte Art', content: 'milk foam', createdAt: at(3) },
    { title: '할인 100% 이벤트', content: '', createdAt: at(4) },
    { title: '10000원의 행복', content: '', createdAt: at(5) },
    { title: 'snake_case 이야기', content: '', createdAt: at(6) },
    { title: 'snakeXcase 이야기', content: '', createdAt: at(7) },
    { title: '역슬래시 a\\b', content: '', createdAt: at(8) },
    { title: 'ㅋㅋㅋ 웃긴 영상', content: '', createdAt: at(9) },
  ]);
  await insertShorts(h.database.db, other.customerId, [{ title: '주말 브이로그', content: '산책', createdAt: at(10) }]);
});
afterAll(() => h.close());

describe('search matching (S2)', () => {
  it('finds title, description, hashtag and nickname, case-insensitively', async () => {
    expect(await titles('커피')).toEqual(['라떼 만들기', '아침 커피 한 잔']);
    expect(await titles('#커피')).toEqual(['라떼 만들기']);
    expect(await titles('latte')).toEqual(['Latte Art']);
    expect(await titles('MILK')).toEqual(['Latte Art']);
    expect(await titles('라떼장')).toEqual(['주말 브이로그']);
    expect(await titles('없는말')).toEqual([]);
  });

  it('matches Korean initial consonants: ㅋㅍ finds 커피, in titles, hashtags and nicknames', async () => {
    expect(await titles('ㅋㅍ')).toEqual(['라떼 만들기', '아침 커피 한 잔']);
    expect(await titles('ㅇㅊ ㅋㅍ')).toEqual(['아침 커피 한 잔']);
    expect(await titles('ㄹㄸㅈㅇ')).toEqual(['주말 브이로그']);
    // Jamo typed as text are kept in the consonant column, so 'ㅋㅋ' finds them literally too.
    expect(await titles('ㅋㅋ')).toEqual(['ㅋㅋㅋ 웃긴 영상']);
  });

  it('treats LIKE wildcards and the escape character as plain text', async () => {
    expect(await titles('100%')).toEqual(['할인 100% 이벤트']);
    expect(await titles('%')).toEqual(['할인 100% 이벤트']);
    expect(await titles('snake_case')).toEqual(['snake_case 이야기']);
    expect(await titles('_')).toEqual(['snake_case 이야기']);
    expect(await titles('a\\b')).toEqual(['역슬래시 a\\b']);
    expect(await titles('\\')).toEqual(['역슬래시 a\\b']);
  });

  it('ranks title over hashtag over description, then newest', async () => {
    const page = await search('커피');
    expect(page.items.map((i) => i.title)).toEqual(['아침 커피 한 잔', '라떼 만들기']);
    expect(page.items[0]?.score).toBeGreaterThan(page.items[1]?.score ?? 0);
  });

  it('browses the newest shorts for an empty query, paged by cursor without repeats', async () => {
    const first = await search('   ');
    expect(first.items.map((i) => i.title)).toEqual([
      '주말 브이로그',
      'ㅋㅋㅋ 웃긴 영상',
      '역슬래시 a\\b',
      'snakeXcase 이야기',
      'snake_case 이야기',
      '10000원의 행복',
      '할인 100% 이벤트',
      'Latte Art',
    ]);
    expect(first.items.every((i) => i.score === 0)).toBe(true);
    expect(first.hasNext).toBe(true);
    const cursor = first.nextCursor;
    if (!cursor) throw new Error('a next cursor');
    const second = await search('', next(cursor));
    expect(second.items.map((i) => i.title)).toEqual(['라떼 만들기', '아침 커피 한 잔']);
    expect(second).toMatchObject({ hasNext: false, nextCursor: null });
    // A text tier's cursor does not continue a browse, nor the other way round.
    const mixed = await h.app.inject({
      method: 'GET',
      url: `/api/public/shorts/search?q=${next({ ...cursor, lastScore: 3 })}`,
    });
    expect(mixed.statusCode).toBe(400);
  });

  it('rejects a partial cursor', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/public/shorts/search?q=a&lastId=3' });
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
  });

  it('filters the logged-in feed by keyword the same way', async () => {
    const res = await h.app.inject({
      method: 'GET',
      url: `/api/shorts/feeds?keyword=${encodeURIComponent('ㅋㅍ')}&size=50`,
      headers: bearer(other.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    // The API contract (A1): `data` is the list itself.
    const got = res
      .json()
      .data.map((s: { title: string }) => s.title)
      .sort();
    expect(got).toEqual(['라떼 만들기', '아침 커피 한 잔']);
  });

  it('stores the same initial consonants as es-hangul computes', async () => {
    const hangul = fc
      .array(
        fc.oneof(
          fc.integer({ min: 0xac00, max: 0xd7a3 }).map((c) => String.fromCharCode(c)),
          fc.constantFrom(' ', 'a', 'B', '1', '#', 'ㅋ', '!'),
        ),
        { maxLength: 12 },
      )
      .map((chars) => chars.join(''));
    const samples = fc.sample(hangul, { numRuns: 60, seed: 9 });
    const result = await h.database.db.execute(
      sql`select ohgood_choseong(t) as c from unnest(${`{${samples.map((s) => JSON.stringify(s)).join(',')}}`}::text[]) with ordinality as u(t, n) order by n`,
    );
    const stored = (result as unknown as { rows: { c: string }[] }).rows.map((r) => r.c);
    expect(stored).toEqual(samples.map((s) => getChoseong(s.toLowerCase(), { keepNonHangul: true })));
  });

  it("finds a hashtag's text as a hashtag or in a title, and a text spanning the title's end as a description", async () => {
    const ids = await insertShorts(h.database.db, creator.customerId, [
      { title: '벚꽃 #벚꽃길 산책', content: '', createdAt: at(-40) },
      { title: '봄 나들이', content: '여의도 #벚꽃길', createdAt: at(-30) },
      { title: '봄 #벚꽃길', content: '걷기', createdAt: at(-20) },
      { title: '꽃구경', content: '벚꽃길 걷기', createdAt: at(-10) },
    ]);
    const [inTitle, asTag, spanning, plain] = ids;
    const found = async (q: string) => (await search(q, '&limit=50')).items.map((i) => [i.shortsId, i.score]);
    expect(await found('#벚꽃길')).toEqual([
      [spanning, 3],
      [inTitle, 3],
      [asTag, 2],
    ]);
    // '#벚꽃길 걷기' is the title's end, the space between, and the description's start: description tier.
    expect(await found('#벚꽃길 걷기')).toEqual([[spanning, 1]]);
    expect(await found('벚꽃길')).toEqual([
      [spanning, 3],
      [inTitle, 3],
      [asTag, 2],
      [plain, 1],
    ]);
    await h.database.db.delete(shorts).where(inArray(shorts.id, ids));
  });
});

/** Every [id, tier] a query finds, page after page of `limit` by the cursor. */
async function allPages(service: SearchService, q: string, limit: number): Promise<Array<[number, number]>> {
  const found: Array<[number, number]> = [];
  let cursor: { lastId?: number; lastDate?: string; lastScore?: number } = {};
  for (;;) {
    const page = await service.search({ q, limit, ...cursor });
    found.push(...page.items.map((i): [number, number] => [i.shortsId, i.score]));
    if (!page.nextCursor) return found;
    cursor = page.nextCursor;
  }
}

describe('search through the indexes alone', () => {
  it('pages every tier alike through a window of the newest shorts, one too small to fill a tier, and the indexes alone', async () => {
    const fan = await h.signUp();
    await h.database.db.update(customers).set({ nickname: '모카러버' }).where(eq(customers.id, fan.customerId));
    const mine = await insertShorts(h.database.db, creator.customerId, [
      { title: '모카 라테', content: '', createdAt: at(-300) },
      { title: '아침', content: '오늘은 모카', createdAt: at(-295) },
      { title: '점심', content: '#모카포트 추출', createdAt: at(-290) },
      { title: '모카포트 세척', content: '#모카', createdAt: at(-285) },
      { title: '저녁', content: '모카 한 잔 더', createdAt: at(-280) },
      { title: '간식', content: '#모카빵', createdAt: at(-310) },
    ]);
    const theirs = await insertShorts(h.database.db, fan.customerId, [
      { title: '산책', content: '', createdAt: at(-298) },
      { title: '카페', content: '모카', createdAt: at(-283) },
    ]);
    const [latte, morning, pot, washing, evening, bread] = mine as [number, number, number, number, number, number];
    const [walk, cafe] = theirs as [number, number];
    // Titles, then hashtags and the creator named '모카러버' (whatever the text says), then descriptions.
    const want: Array<[number, number]> = [
      [washing, 3],
      [latte, 3],
      [cafe, 2],
      [pot, 2],
      [walk, 2],
      [bread, 2],
      [evening, 1],
      [morning, 1],
    ];
    // Page sizes 1–3 make each tier sometimes filled from the window and sometimes not. Three letters and
    // more are read at once when few (`few`: never, over the cap of 1 so tier by tier, or at once).
    for (const [window, few] of [0, 3, 2000].flatMap((w) => [0, 1, 100].map((f) => [w, f]))) {
      const service = createSearchService(h.database.db, '', { window, few });
      const label = `window ${window}, few ${few}`;
      for (const limit of [1, 2, 3]) {
        expect(await allPages(service, '모카', limit), `${label}, limit ${limit}`).toEqual(want);
        expect(await allPages(service, 'ㅁㅋ', limit), `${label}, limit ${limit}, consonants`).toEqual(want);
        // The creator named '모카러버' and a hashtag that starts '#모카포'.
        expect(await allPages(service, '모카러', limit), `${label}, limit ${limit}, a name`).toEqual([
          [cafe, 2],
          [walk, 2],
        ]);
        expect(await allPages(service, 'ㅁㅋㄹ', limit), `${label}, limit ${limit}, a name's consonants`).toEqual([
          [cafe, 2],
          [walk, 2],
        ]);
        expect(await allPages(service, '모카포', limit), `${label}, limit ${limit}, three letters`).toEqual([
          [washing, 3],
          [pot, 2],
        ]);
        // Three matches: over the cap of 1, read tier by tier.
        expect(await allPages(service, '#모카', limit), `${label}, limit ${limit}, a hashtag`).toEqual([
          [washing, 2],
          [pot, 2],
          [bread, 2],
        ]);
      }
      // Three letters and more: the description tier is read through pg_trgm instead of the grams.
      expect(await allPages(service, '모카 한', 1), `${label}, three letters`).toEqual([[evening, 1]]);
      expect(await allPages(service, '은 모카', 1), `${label}, three letters`).toEqual([[morning, 1]]);
      expect(await allPages(service, 'ㅁㅋㅍㅌ', 1), `${label}, consonants`).toEqual([
        [washing, 3],
        [pot, 2],
      ]);
    }
    await h.database.db.delete(shorts).where(inArray(shorts.id, [...mine, ...theirs]));
  });

  it("finds '#x' through the hashtags table exactly as the newest-shorts look does, and follows edits and deletes", async () => {
    const ids = await insertShorts(h.database.db, creator.customerId, [
      { title: '봄 소풍', content: '김밥 #봄나들이 #소풍', createdAt: at(-200) },
      { title: '벚꽃', content: '#봄', createdAt: at(-190) },
      { title: '#봄 제목', content: '내용 #여름', createdAt: at(-180) },
      { title: '두 번', content: '##봄비 내리는 날 #봄비', createdAt: at(-170) },
      { title: '붙은 글', content: '한강#봄밤', createdAt: at(-160) },
      { title: '대문자', content: '#SPRING time', createdAt: at(-150) },
      { title: '그냥 봄', content: '봄 이야기', createdAt: at(-140) },
      { title: '백분율', content: '#100%_할인', createdAt: at(-130) },
    ]);
    const [picnic, blossom, titled, rain, riverside, upper] = ids as [number, number, number, number, number, number];
    const hidden = (
      await insertShorts(h.database.db, creator.customerId, [{ title: '숨김', content: '#봄', createdAt: at(-120) }])
    )[0] as number;
    await h.database.db.update(shorts).set({ status: 'HIDDEN' }).where(eq(shorts.id, hidden));
    const throughIndexes = createSearchService(h.database.db, '', { window: 0, few: 0 });
    const throughWindow = createSearchService(h.database.db, '', { few: 0 });
    const atOnce = createSearchService(h.database.db, '', { window: 0 });
    const all = (service: SearchService, q: string) => allPages(service, q, 2);
    const expected: Record<string, Array<[number, number]>> = {
      // A tag is found by its start, newest first, in two-item pages; the title's '#봄' is tier 3.
      '#봄': [
        [titled, 3],
        [riverside, 2],
        [rain, 2],
        [blossom, 2],
        [picnic, 2],
      ],
      '#봄비': [[rain, 2]],
      '#spring': [[upper, 2]],
      '#100%': [[ids[7] as number, 2]],
      '#100%_할': [[ids[7] as number, 2]],
      '#100x': [],
    };
    for (const [q, want] of Object.entries(expected)) {
      expect(await all(throughIndexes, q), q).toEqual(want);
      expect(await all(throughWindow, q), q).toEqual(want);
      expect(await all(atOnce, q), q).toEqual(want);
    }
    // An edited description moves its tags; a deleted short takes them along.
    await h.database.db.update(shorts).set({ content: '이제 #여름' }).where(eq(shorts.id, blossom));
    expect((await all(throughIndexes, '#봄')).map(([id]) => id)).not.toContain(blossom);
    expect(await all(throughIndexes, '#여름')).toEqual([
      [titled, 2],
      [blossom, 2],
    ]);
    await h.database.db.delete(shorts).where(inArray(shorts.id, [...ids, hidden]));
    expect(await all(throughIndexes, '#여름')).toEqual([]);
    const left = await h.database.db.execute(
      sql`select count(*)::int as n from short_hashtags where short_id = any(${`{${[...ids, hidden].join(',')}}`}::int[])`,
    );
    expect((left as unknown as { rows: Array<{ n: number }> }).rows[0]?.n).toBe(0);
  });
});

describe('queries with many matches', () => {
  it('remembers a query with more matches than one statement reads and reads it tier by tier from then on', async () => {
    const ids = await insertShorts(h.database.db, creator.customerId, [
      { title: '유자차 만들기', content: '', createdAt: at(-500) },
      { title: '겨울', content: '따뜻한 유자차', createdAt: at(-490) },
      { title: '간식', content: '#유자차', createdAt: at(-480) },
    ]);
    const [titled, described, tagged] = ids as [number, number, number];
    const remembered = () => new CacheHome().define<string, true>({ name: 'many', max: 10, droppedBy: {} });
    const manyMatches = remembered();
    const none = remembered();
    const { db: counting, counter } = countingDb(h.database.db);
    // Three matches: over a cap of 2, within one of 3.
    const overCap = createSearchService(counting, '', { window: 0, few: 2, manyMatches });
    const withinCap = createSearchService(counting, '', { window: 0, few: 3, manyMatches: none });
    const want = [
      [titled, 3],
      [tagged, 2],
      [described, 1],
    ];
    const sent = async (service: SearchService, q: string) => {
      counter.statements = 0;
      const page = await service.search({ q, limit: 8 });
      expect(page.items.map((i) => [i.shortsId, i.score])).toEqual(want);
      return counter.statements;
    };
    const counted = await sent(overCap, '유자차');
    expect(manyMatches.peek('유자차')).toBe(true);
    // The next time the count is not asked again: one statement fewer, the same page.
    expect(await sent(overCap, '유자차')).toBe(counted - 1);
    // Within the cap, every tier in one statement after the newest shorts and the creators named.
    expect(await sent(withinCap, '유자차')).toBe(3);
    expect(none.peek('유자차')).toBeUndefined();
    await h.database.db.delete(shorts).where(inArray(shorts.id, ids));
  });
});

describe('search cursor stability', () => {
  // Two letters are read tier by tier; four, every match at once (few of them).
  it.each([
    ['여행', '평범한사람'],
    ['제주여행', '평범한여행자'],
  ])(
    'never repeats or skips an item while shorts are inserted, liked and deleted between pages (%s)',
    async (word, nickname) => {
      const db = h.database.db;
      const author = await h.signUp();
      await db.update(customers).set({ nickname }).where(eq(customers.id, author.customerId));
      // 30 matches over three score tiers; several share a creation instant so the id decides.
      const spec = Array.from({ length: 30 }, (_, i) => {
        const tier = i % 3;
        const title = tier === 0 ? `${word} 기록 ${i}` : tier === 1 ? `기록 ${i}` : `일상 ${i}`;
        const content = tier === 2 ? `오늘의 #${word}` : tier === 1 ? `${word} 가고 싶다` : '그냥';
        return { title, content, createdAt: at(100 + Math.floor(i / 4)) };
      });
      const ids = await insertShorts(db, author.customerId, spec);
      const fans = await Promise.all([h.signUp(), h.signUp()]);

      const seen: number[] = [];
      const deleted = new Set<number>();
      let page = await search(word, '&limit=8');
      seen.push(...page.items.map((i) => i.shortsId));
      let round = 0;
      while (page.hasNext && page.nextCursor) {
        round += 1;
        const unseen = ids.filter((id) => !seen.includes(id) && !deleted.has(id));
        // Between page loads: a new matching upload (newest, best title match), likes on a seen and an unseen
        // item, and an unseen item deleted.
        await insertShorts(db, author.customerId, [
          { title: `${word} 새 영상 ${round}`, createdAt: at(10_000 + round) },
        ]);
        for (const fan of fans) {
          for (const target of [seen[0], unseen[0]]) {
            const res = await h.app.inject({
              method: 'POST',
              url: `/api/shorts/feeds/${target}/reactions`,
              headers: bearer(fan.token),
              payload: { shortsId: target, type: 'like' },
            });
            expect(res.statusCode).toBe(200);
          }
        }
        const victim = unseen.at(-1);
        if (victim !== undefined) {
          await db.delete(shorts).where(eq(shorts.id, victim));
          deleted.add(victim);
        }
        page = await search(word, next(page.nextCursor));
        seen.push(...page.items.map((i) => i.shortsId));
      }
      expect(round).toBeGreaterThanOrEqual(3);
      const original = seen.filter((id) => ids.includes(id));
      expect(new Set(seen).size).toBe(seen.length);
      expect(original.sort((a, b) => a - b)).toEqual(ids.filter((id) => !deleted.has(id)).sort((a, b) => a - b));
    },
  );
});
