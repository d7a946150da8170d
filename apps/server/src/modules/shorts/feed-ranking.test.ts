import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortRankClock, shorts } from '../../db/schema';
import { heardEverythingAnnounced } from '../../test/announced';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { lockWaiters } from '../../test/lock-waits';

const HOUR = 3600_000;
type Item = { shortsId: number; likeCount: number; shortsName: string };

/** docs/rules/shorts.md#S1, evaluated in JS: the stored ranking must give exactly this order. */
function domainScore(row: { likes: number; comments: number; content: string; ageMs: number }): number {
  const ageHours = Math.max(0, row.ageMs) / HOUR;
  const freshness = ageHours > 60 * 24 ? 0 : 5 * Math.exp(-ageHours / 72);
  return (
    1.5 * Math.log(1 + row.likes) +
    1.2 * Math.log(1 + row.comments) +
    (/#[^\s#]+/.test(row.content) ? 1.2 : 0) +
    freshness
  );
}

const like = (h: Harness, id: number, token: string) =>
  h.app.inject({
    method: 'POST',
    url: `/api/shorts/feeds/${id}/reactions`,
    headers: bearer(token),
    payload: { shortsId: id, type: 'like' },
  });

async function insertShorts(h: Harness, customerId: number, count: number) {
  const now = h.clock.now().getTime();
  const rows = Array.from({ length: count }, (_, i) => ({
    customerId,
    title: `순위 ${i}`,
    content: i % 3 === 0 ? `태그 #주제${i}` : `설명 ${i}`,
    videoKey: `v/${i}.mp4`,
    status: 'READY' as const,
    likeCount: (i * 7) % 11,
    commentCount: (i * 5) % 4,
    // From an hour ago to 100 days ago, so some carry no freshness at all.
    createdAt: new Date(now - HOUR - ((i * 37) % 100) * 24 * HOUR - i * 1000),
  }));
  const inserted = await h.database.db.insert(shorts).values(rows).returning({ id: shorts.id });
  return rows.map((row, i) => ({ ...row, id: inserted[i]?.id ?? 0 }));
}

describe('stored ranking with keyset pages', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it('pages through exactly the domain order, page after page, and follows a like at once', async () => {
    const { customerId, token } = await h.signUp();
    const rows = await insertShorts(h, customerId, 37);
    const now = h.clock.now().getTime();
    const expected = [...rows]
      .map((r) => ({
        id: r.id,
        created: r.createdAt.getTime(),
        score: domainScore({
          likes: r.likeCount,
          comments: r.commentCount,
          content: r.content,
          ageMs: now - r.createdAt.getTime(),
        }),
      }))
      .sort((a, b) => b.score - a.score || b.created - a.created || b.id - a.id)
      .map((r) => r.id);

    const readAll = async () => {
      const ids: number[] = [];
      for (let page = 1; page <= 4; page++) {
        const res = await h.app.inject({ method: 'GET', url: `/api/public/shorts/feeds?page=${page}&size=10` });
        expect(res.statusCode).toBe(200);
        ids.push(...res.json().data.map((s: Item) => s.shortsId));
        expect(res.json().hasNext).toBe(page < 4);
      }
      return ids;
    };
    // The first pass pages by offset and remembers page ends; the second continues from them (keyset).
    expect(await readAll()).toEqual(expected);
    expect(await readAll()).toEqual(expected);
    // Page 3 alone, by keyset from the remembered end of page 2, is the same slice.
    const three = await h.app.inject({ method: 'GET', url: '/api/public/shorts/feeds?page=3&size=10' });
    expect(three.json().data.map((s: Item) => s.shortsId)).toEqual(expected.slice(20, 30));

    // A like changes the stored score in the same transaction (trigger): the last short moves up.
    const last = expected.at(-1) ?? 0;
    const fans = await Promise.all([h.signUp(), h.signUp(), h.signUp(), h.signUp()]);
    for (const fan of [...fans, { token }]) {
      expect((await like(h, last, fan.token)).statusCode).toBe(200);
    }
    const after = await readAll();
    expect(after.indexOf(last)).toBeLessThan(expected.indexOf(last));
    expect([...after].sort()).toEqual([...expected].sort());
  });
});

describe('the minute refresh and readers', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  const decayAt = async () => (await h.database.db.select().from(shortRankClock))[0]?.decayAt.getTime() ?? Number.NaN;
  /** Resolves once the refresh's update waits for a lock. */
  const someoneWaits = () => lockWaiters(h.database.db, '%update short_ranks%');

  it('serves the ranking a minute old while its refresh runs, and brings an older one up to date first', async () => {
    const { customerId, token } = await h.signUp();
    await insertShorts(h, customerId, 5);
    // Signed in: past the anonymous answer cache, every read asks the ranking.
    const read = () => h.app.inject({ method: 'GET', url: '/api/shorts/feeds?page=1&size=10', headers: bearer(token) });
    expect((await read()).statusCode).toBe(200);
    const first = await decayAt();

    // Another transaction holds the ranking's rows: a refresh started now waits for it.
    const holder = new pg.Client({ connectionString: h.database.url });
    const probe = new pg.Client({ connectionString: h.database.url });
    await Promise.all([holder.connect(), probe.connect()]);
    try {
      await holder.query('begin; lock table short_ranks in exclusive mode');
      // 61 s later: the refresh is due, the reader is answered from the ranking as it stands.
      h.clock.advance(61_000);
      const answered = await read();
      expect(answered.statusCode).toBe(200);
      await someoneWaits();
      expect(await decayAt()).toBe(first);
      await holder.query('commit');
      // The background refresh goes on once the lock is gone.
      while ((await decayAt()) !== first + 61_000) await probe.query('select pg_sleep(0.01)');

      // Three minutes later the ranking is too old to serve: the reader waits for the refresh.
      await holder.query('begin; lock table short_ranks in exclusive mode');
      h.clock.advance(180_000);
      let done = false;
      const waiting = read().then((res) => {
        done = true;
        return res;
      });
      await someoneWaits();
      expect(done).toBe(false);
      await holder.query('commit');
      expect((await waiting).statusCode).toBe(200);
      expect(await decayAt()).toBe(first + 241_000);
    } finally {
      await holder.query('rollback').catch(() => undefined);
      await Promise.all([holder.end(), probe.end()]);
    }
  });
});

describe('readers missing the same page together', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it('share one read of it from the database', async () => {
    const { customerId } = await h.signUp();
    await insertShorts(h, customerId, 12);
    const viewers = await Promise.all(Array.from({ length: 5 }, () => h.signUp()));
    const read = (token: string) =>
      h.app.inject({ method: 'GET', url: '/api/shorts/feeds?page=1&size=10', headers: bearer(token) });
    // Three minutes on, a read refreshes the ranking, which drops every page here and is announced to all
    // instances, this one too. Once everything announced so far is heard (a sentinel viewer change, delivered
    // in commit order), page 1 is cached nowhere.
    h.clock.advance(180_000);
    expect((await read(viewers[0]?.token ?? '')).statusCode).toBe(200);
    await heardEverythingAnnounced(h.database, [h.app]);
    // Every ranked-page read the app sends, counted on its own pool (the real one, only watched).
    const pool = h.database.pool;
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    let pageReads = 0;
    pool.query = ((...args: unknown[]) => {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
      if (text?.includes('from "short_ranks"')) pageReads += 1;
      return query(...args);
    }) as typeof pool.query;
    try {
      // The five readers all miss page 1 at once.
      const answers = await Promise.all(viewers.map((v) => read(v.token)));
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
      const ids = answers.map((a) => a.json().data.map((item: Item) => item.shortsId));
      for (const other of ids) expect(other).toEqual(ids[0]);
      expect(ids[0]).toHaveLength(10);
      expect(pageReads).toBe(1);
    } finally {
      pool.query = query as typeof pool.query;
    }
  });
});

describe('public answer cache', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ config: { PUBLIC_CACHE_MS: 60_000, PUBLIC_FEED_CACHE_MS: 60_000 } });
  });
  afterAll(() => h.close());

  it('serves anonymous feed pages with ETag and Cache-Control, and drops them when shorts change', async () => {
    const creator = await h.signUp();
    const [row] = await insertShorts(h, creator.customerId, 1);
    const id = row?.id ?? 0;
    const url = '/api/public/shorts/feeds?page=1&size=10';
    // The first feed read moves the ranking's clock, which is announced as a ranking change: hear everything
    // announced so far (a sentinel viewer change, delivered in commit order) before caching the page.
    await h.app.inject({ method: 'GET', url });
    await heardEverythingAnnounced(h.database, [h.app]);
    const first = await h.app.inject({ method: 'GET', url });
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    expect(first.headers.vary).toContain('authorization');

    const again = await h.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    // A reaction shows at once on the short's own answer; the anonymous feed keeps its page (docs/rules/shorts.md#S19)
    // and shows the new count after the ranking's refresh.
    const fan = await h.signUp();
    const liked = await like(h, id, fan.token);
    expect(liked.statusCode).toBe(200);
    const likeCount = liked.json().data.likeCount;
    expect((await h.app.inject({ method: 'GET', url: `/api/public/shorts/${id}` })).json().likeCount).toBe(likeCount);
    const afterLike = await h.app.inject({ method: 'GET', url });
    expect(afterLike.headers.etag).toBe(etag);
    expect(afterLike.json().data[0].likeCount).toBe(first.json().data[0].likeCount);
    h.app.caches.changes.rankingChanged();
    const afterRefresh = await h.app.inject({ method: 'GET', url });
    expect(afterRefresh.json().data[0].likeCount).toBe(likeCount);
    expect(afterRefresh.headers.etag).not.toBe(etag);

    // A write made elsewhere (another instance, a job): the database notifies every instance.
    await h.database.db.update(shorts).set({ title: '바뀐 제목' }).where(eq(shorts.id, id));
    await expect
      .poll(async () => (await h.app.inject({ method: 'GET', url })).json().data[0].shortsName, {
        timeout: 10_000,
      })
      .toBe('바뀐 제목');

    // A personalised answer is never public.
    const mine = await h.app.inject({ method: 'GET', url, headers: bearer(fan.token) });
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['cache-control']).toBeUndefined();
    expect(mine.json().data[0].myReaction).toBe('like');
  });
});
