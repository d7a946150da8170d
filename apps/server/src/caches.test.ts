import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { shorts } from './db/schema';
import { testConfig } from './lib/config';
import { heardEverythingAnnounced } from './test/announced';
import { bearer, createHarness, type Harness } from './test/harness';

/*
 * Two instances on one database, each with its own caches, hearing each other through LISTEN/NOTIFY. Cached
 * answers live a minute here, so only a change can drop one during a test. Every step waits on events: after
 * a write, a sentinel notification is sent and each instance's cache home reports hearing it; notifications
 * arrive in commit order, so by then each has applied everything the write announced.
 */

let h: Harness;
let a: FastifyInstance;
let b: FastifyInstance;
let s1: number;
let s2: number;
let viewer: { token: string; customerId: number };
let creatorId: number;

beforeAll(async () => {
  h = await createHarness({ config: { PUBLIC_CACHE_MS: 60_000, PUBLIC_FEED_CACHE_MS: 60_000 } });
  a = h.app;
  b = await buildApp({
    config: testConfig({ PUBLIC_CACHE_MS: 60_000, PUBLIC_FEED_CACHE_MS: 60_000 }),
    database: h.database,
    clock: h.clock,
    jwtSecret: 'test-secret-test-secret-test-secret-1234',
  });
  await b.ready();
  const creator = await h.signUp();
  creatorId = creator.customerId;
  viewer = await h.signUp();
  const rows = await h.database.db
    .insert(shorts)
    .values(
      [1, 2].map((i) => ({
        customerId: creator.customerId,
        title: `캐시 ${i}`,
        content: '',
        videoKey: `v/cache${i}.mp4`,
        durationMs: 10_000,
        status: 'READY' as const,
        createdAt: h.clock.now(),
      })),
    )
    .returning({ id: shorts.id });
  [s1, s2] = rows.map((r) => r.id) as [number, number];
  // The first feed read of each instance moves the ranking's clock (a ranking change); get it done first.
  for (const app of [a, b]) await app.inject({ method: 'GET', url: '/api/public/shorts/feeds?page=1&size=10' });
  await settled();
});
afterAll(async () => {
  await b.close();
  await h.close();
});

/** Resolves once both instances heard everything committed before this call. */
const settled = () => heardEverythingAnnounced(h.database, [a, b]);

const hitsOf = (app: FastifyInstance, name: string) =>
  app.caches.home.stats().find((s) => s.name === name)?.hits ?? Number.NaN;

/** Whether an anonymous GET of `url` was answered from `cache` (then it is cached either way). */
async function servedFromCache(app: FastifyInstance, cache: string, url: string): Promise<boolean> {
  const before = hitsOf(app, cache);
  const res = await app.inject({ method: 'GET', url });
  expect(res.statusCode).toBe(200);
  return hitsOf(app, cache) > before;
}

/** Which of the public answers each instance still had cached. */
async function stillCached(app: FastifyInstance) {
  return {
    feed: await servedFromCache(app, 'public-feed', '/api/public/shorts/feeds?page=1&size=10'),
    search: await servedFromCache(app, 'public-search', SEARCH_URL),
    short1: await servedFromCache(app, 'public-short', `/api/public/shorts/${s1}`),
    short2: await servedFromCache(app, 'public-short', `/api/public/shorts/${s2}`),
    comments1: await servedFromCache(app, 'public-comments', `/api/public/shorts/feeds/${s1}/comments`),
    comments2: await servedFromCache(app, 'public-comments', `/api/public/shorts/feeds/${s2}/comments`),
  };
}

/** An anonymous search finding both shorts (they are titled '캐시 1' and '캐시 2'). */
const SEARCH_URL = `/api/public/shorts/search?q=${encodeURIComponent('캐시')}&limit=8`;

const ALL = { feed: true, search: true, short1: true, short2: true, comments1: true, comments2: true };
const NONE = { feed: false, search: false, short1: false, short2: false, comments1: false, comments2: false };

/** Runs `change` on a primed pair, then reports what each instance still had cached. */
async function afterChange(change: () => Promise<unknown>) {
  await stillCached(a);
  await stillCached(b);
  await change();
  await settled();
  return { a: await stillCached(a), b: await stillCached(b) };
}

describe('one cache home: what a change drops, on both instances', () => {
  it('keeps every public answer cached while a signed-in viewer watches (views and watch-point claims)', async () => {
    const result = await afterChange(async () => {
      const view = await a.inject({ method: 'POST', url: `/api/shorts/${s1}/views`, headers: bearer(viewer.token) });
      expect(view.statusCode).toBe(200);
      h.clock.advance(6_000);
      const earn = await b.inject({
        method: 'POST',
        url: '/api/shorts/point/earn',
        headers: bearer(viewer.token),
        payload: { shortsId: s1, watchedSeconds: 5 },
      });
      expect(earn.statusCode).toBe(200);
      expect(earn.json().earnedPoints).toBeGreaterThan(0);
    });
    expect(result).toEqual({ a: ALL, b: ALL });
  });

  it('a reaction drops that short, not the anonymous feed (its counts wait for the refresh), its comments nor another short', async () => {
    const result = await afterChange(async () => {
      const res = await a.inject({
        method: 'POST',
        url: `/api/shorts/feeds/${s1}/reactions`,
        headers: bearer(viewer.token),
        payload: { shortsId: s1, type: 'like' },
      });
      expect(res.statusCode).toBe(200);
    });
    const expected = { ...ALL, short1: false };
    expect(result).toEqual({ a: expected, b: expected });
  });

  it("a comment drops that short's comments and its item, not the anonymous feed", async () => {
    const result = await afterChange(async () => {
      const res = await b.inject({
        method: 'POST',
        url: `/api/shorts/feeds/${s2}/comments`,
        headers: bearer(viewer.token),
        payload: { content: '캐시 댓글', gno: 0 },
      });
      expect(res.statusCode).toBe(200);
    });
    const expected = { ...ALL, short2: false, comments2: false };
    expect(result).toEqual({ a: expected, b: expected });
    const list = await a.inject({ method: 'GET', url: `/api/public/shorts/feeds/${s2}/comments` });
    expect(list.json().data.map((c: { content: string }) => c.content)).toContain('캐시 댓글');
  });

  it('a subscription drops no public answer', async () => {
    const creatorId = (await a.inject({ method: 'GET', url: `/api/public/shorts/${s1}` })).json().customerId;
    const result = await afterChange(async () => {
      const res = await a.inject({
        method: 'POST',
        url: `/api/shorts/subscribe/${creatorId}`,
        headers: bearer(viewer.token),
      });
      expect([200, 201]).toContain(res.statusCode);
    });
    expect(result).toEqual({ a: ALL, b: ALL });
  });

  it("search: a token never reads the anonymous answers; a creator's new name drops them on both instances", async () => {
    await stillCached(a);
    const before = hitsOf(a, 'public-search');
    const signedIn = await a.inject({ method: 'GET', url: SEARCH_URL, headers: bearer(viewer.token) });
    expect(signedIn.statusCode).toBe(200);
    expect(hitsOf(a, 'public-search')).toBe(before);
    const result = await afterChange(() =>
      h.database.pool.query(`update customers set nickname = '캐시장인' where id = $1`, [creatorId]),
    );
    expect(result).toEqual({ a: NONE, b: NONE });
    const found = await b.inject({ method: 'GET', url: SEARCH_URL });
    expect(new Set(found.json().items.map((item: { nickname: string }) => item.nickname))).toEqual(
      new Set(['캐시장인']),
    );
  });

  it('the ranking refresh drops only the feed and search', async () => {
    const result = await afterChange(() => h.database.pool.query(`select pg_notify('feed_changed', 'ranking')`));
    const expected = { ...ALL, feed: false, search: false };
    expect(result).toEqual({ a: expected, b: expected });
  });

  it('a short changing itself (written past both instances) drops everything about it, nothing of the other', async () => {
    const result = await afterChange(() =>
      h.database.pool.query(`update shorts set title = '새 제목' where id = $1`, [s1]),
    );
    const expected = { ...ALL, feed: false, search: false, short1: false, comments1: false };
    expect(result).toEqual({ a: expected, b: expected });
    const one = await b.inject({ method: 'GET', url: `/api/public/shorts/${s1}` });
    expect(one.json().title).toBe('새 제목');
    // The search cached again just now already lists the new title.
    const found = await a.inject({ method: 'GET', url: SEARCH_URL });
    expect(found.json().items.map((item: { title: string }) => item.title)).not.toContain('캐시 1');
  });

  it('a short becoming playable drops the signed-in pages at once, not the anonymous feed: that lists it from the next ranking refresh', async () => {
    const feedIds = async (app: FastifyInstance, token?: string) =>
      (
        (
          await app.inject({
            method: 'GET',
            url: token ? '/api/shorts/feeds?page=1&size=10' : '/api/public/shorts/feeds?page=1&size=10',
            ...(token ? { headers: bearer(token) } : {}),
          })
        ).json().data as Array<{ shortsId: number }>
      ).map((item) => item.shortsId);
    for (const app of [a, b]) await feedIds(app, viewer.token);
    let added = 0;
    const result = await afterChange(async () => {
      const [row] = await h.database.db
        .insert(shorts)
        .values({
          customerId: viewer.customerId,
          title: '새 영상',
          content: '',
          videoKey: 'v/cache-new.mp4',
          durationMs: 10_000,
          status: 'PROCESSING',
          createdAt: h.clock.now(),
        })
        .returning({ id: shorts.id });
      added = row?.id ?? 0;
      // Published by its transcode (another instance's worker, for all these two know).
      await h.database.pool.query(`update shorts set status = 'READY' where id = $1`, [added]);
    });
    expect(result).toEqual({ a: ALL, b: ALL });
    for (const app of [a, b]) {
      expect(await feedIds(app, viewer.token)).toContain(added);
      expect(await feedIds(app)).not.toContain(added);
    }
    const refreshed = await afterChange(() => h.database.pool.query(`select pg_notify('feed_changed', 'ranking')`));
    expect(refreshed.a.feed).toBe(false);
    for (const app of [a, b]) expect(await feedIds(app)).toContain(added);
  });

  it('the change API drops exactly its kind on the instance that calls it', async () => {
    await stillCached(a);
    a.caches.changes.commentsChanged(s1);
    expect(await stillCached(a)).toEqual({ ...ALL, short1: false, comments1: false });
    a.caches.changes.shortChanged(s1);
    expect(await stillCached(a)).toEqual({ ...ALL, feed: false, search: false, short1: false, comments1: false });
    a.caches.changes.shortAdded(s2);
    expect(await stillCached(a)).toEqual({ ...ALL, short2: false, comments2: false });
    a.caches.changes.viewersChanged([viewer.customerId]);
    expect(await stillCached(a)).toEqual(ALL);
    a.caches.changes.blocksChanged([viewer.customerId]);
    expect(await stillCached(a)).toEqual(ALL);
    a.caches.changes.everythingChanged();
    expect(await stillCached(a)).toEqual(NONE);
  });

  it("drops a viewer's remembered facts on their own reaction, through either instance", async () => {
    const page = async (app: FastifyInstance) =>
      (
        await app.inject({ method: 'GET', url: '/api/shorts/feeds?page=1&size=10', headers: bearer(viewer.token) })
      ).json().data as Array<{ shortsId: number; myReaction: string }>;
    const mine = async (app: FastifyInstance) => (await page(app)).find((i) => i.shortsId === s2)?.myReaction;
    expect(await mine(a)).toBe('none');
    expect(await mine(b)).toBe('none');
    const res = await a.inject({
      method: 'POST',
      url: `/api/shorts/feeds/${s2}/reactions`,
      headers: bearer(viewer.token),
      payload: { shortsId: s2, type: 'dislike' },
    });
    expect(res.statusCode).toBe(200);
    await settled();
    expect(await mine(a)).toBe('dislike');
    expect(await mine(b)).toBe('dislike');
  });

  it('remembers whom a viewer blocked through their reactions and follows, and forgets it on a block, through either instance', async () => {
    const signedIn = (app: FastifyInstance, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
      app.inject({ method, url, headers: bearer(viewer.token), ...(payload ? { payload } : {}) });
    /** The creator's shorts on the viewer's feed page, and whether their blocked creators came from the cache. */
    const feed = async (app: FastifyInstance) => {
      const before = hitsOf(app, 'blocked-creators');
      const res = await signedIn(app, 'GET', '/api/shorts/feeds?page=1&size=10');
      expect(res.statusCode).toBe(200);
      const ids = (res.json().data as Array<{ shortsId: number }>).map((i) => i.shortsId);
      const creators = ids.filter((id) => id === s1 || id === s2).sort((x, y) => x - y);
      return { creators, blocksFromCache: hitsOf(app, 'blocked-creators') > before };
    };
    // Whichever of the creator's shorts the earlier tests left on the page.
    const { creators: listed } = await feed(a);
    expect(listed.length).toBeGreaterThan(0);
    await feed(b);
    const like = () => signedIn(a, 'POST', `/api/shorts/feeds/${s1}/reactions`, { shortsId: s1, type: 'like' });
    expect((await like()).statusCode).toBe(200);
    expect((await signedIn(a, 'POST', `/api/shorts/subscribe/${creatorId}`)).statusCode).toBe(200);
    await settled();
    for (const app of [a, b]) expect(await feed(app)).toEqual({ creators: listed, blocksFromCache: true });

    expect((await signedIn(b, 'POST', `/api/shorts/blocks/${creatorId}`)).statusCode).toBe(200);
    await settled();
    for (const app of [a, b]) expect(await feed(app)).toEqual({ creators: [], blocksFromCache: false });

    expect((await signedIn(a, 'DELETE', `/api/shorts/blocks/${creatorId}`)).statusCode).toBe(200);
    expect((await like()).statusCode).toBe(200);
    expect((await signedIn(a, 'DELETE', `/api/shorts/mypage/subscription?targetId=${creatorId}`)).statusCode).toBe(200);
    await settled();
    for (const app of [a, b]) expect((await feed(app)).creators).toEqual(listed);
  });
});

describe('what a statement writing shorts announces (migrations 0052, 0053)', () => {
  it('names every short a statement wrote in one notification, says everything past one payload, and stays silent when nothing cached changed', async () => {
    const listener = await h.database.pool.connect();
    const heard: string[] = [];
    // A short that does not exist marks the end: notifications arrive in commit order.
    const END = 'counts:2000000002';
    let ended: () => void = () => {};
    listener.on('notification', (n) => {
      if (n.payload === END) ended();
      else heard.push(n.payload ?? '');
    });
    await listener.query('listen feed_changed');
    const announced = async (statement: string, values: unknown[] = []) => {
      heard.length = 0;
      const end = new Promise<void>((resolve) => {
        ended = resolve;
      });
      await h.database.pool.query(statement, values);
      await h.database.pool.query(`select pg_notify('feed_changed', '${END}')`);
      await end;
      return [...heard];
    };
    const insert = (count: number, status = 'READY') =>
      `insert into shorts (customer_id, title, content, video_key, duration_ms, status, created_at)
       select ${viewer.customerId}, '묶음 ' || g, '', 'v/bulk' || g || '.mp4', 10000, '${status}', now()
         from generate_series(1, ${count}) g returning id`;
    const titled = async (pattern: string) =>
      (
        await h.database.pool.query<{ id: number }>(`select id from shorts where title like $1 order by id`, [pattern])
      ).rows.map((r) => r.id);
    try {
      const three = await announced(insert(3));
      const ids = await titled('묶음 %');
      expect(three).toEqual([`added:${ids.join(',')}`]);
      // Uploads being processed are in no cache; publishing one adds it; hiding a playable one changes it.
      expect(await announced(insert(2, 'PROCESSING'))).toEqual([]);
      const uploads = (await titled('묶음 %')).filter((id) => !ids.includes(id));
      expect(await announced(`update shorts set status = 'FAILED' where id = $1`, [uploads[0]])).toEqual([]);
      expect(
        await announced(`update shorts set status = 'READY' where id = any($1) or id = $2`, [uploads, ids[2]]),
      ).toEqual([`added:${uploads.join(',')}`]);
      expect(await announced(`update shorts set status = 'HIDDEN' where id = $1`, [ids[2]])).toEqual([
        `short:${ids[2]}`,
      ]);
      const [first, second] = ids as [number, number];
      expect(
        await announced(`update shorts set like_count = like_count + 1 where id = any($1)`, [[first, second]]),
      ).toEqual([`counts:${first},${second}`]);
      expect(
        await announced(
          `update shorts set like_count = like_count + 1, title = case when id = $1 then '새 묶음' else title end
                          where id = any($2)`,
          [first, [first, second]],
        ),
      ).toEqual([`short:${first}`, `counts:${second}`]);
      expect(await announced(`update shorts set duration_ms = duration_ms + 1 where id = any($1)`, [ids])).toEqual([]);
      // 2,000 ids do not fit in one payload: everything changed.
      expect(await announced(insert(2000))).toEqual(['']);
    } finally {
      await h.database.pool.query(`delete from shorts where title like '묶음 %' or title = '새 묶음'`);
      listener.release(true);
    }
  });
});
