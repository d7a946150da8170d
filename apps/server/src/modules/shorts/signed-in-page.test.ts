import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/tx';
import { heardEverythingAnnounced } from '../../test/announced';
import { countingDb } from '../../test/counting-db';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { insertShorts } from '../../test/shorts-fixture';
import { signedInOperator } from '../../test/staff-fixture';
import { TOKEN_TTL_SECONDS } from '../auth/tokens';

/**
 * What a signed-in feed page costs once its shared parts are known (docs/performance.md "Feed"): the ranked
 * page, the viewer's blocked creators and facts come from their caches, and the only statement left is the
 * one that starts the page's watches (docs/rules/shorts.md#S16), shared with the pages served together.
 */
let h: Harness;
let counter: ReturnType<typeof countingDb>['counter'];
let creator: { token: string; customerId: number };
let ids: number[];

beforeAll(async () => {
  h = await createHarness({
    // Ranked pages kept as in production (tests keep none by default).
    config: { PUBLIC_CACHE_MS: 60_000 },
    appDb: (db) => {
      const counting = countingDb(db);
      counter = counting.counter;
      return counting.db;
    },
  });
  creator = await h.signUp();
  ids = await insertShorts(
    h.database.db,
    creator.customerId,
    Array.from({ length: 12 }, (_, i) => ({
      title: `피드 ${i}`,
      createdAt: new Date(h.clock.now().getTime() - i * 60_000),
    })),
  );
  // The first page brings the ranking up to date; its announcement, and the shorts' own, would drop the
  // pages read before they arrive.
  expect((await page(creator.token)).statusCode).toBe(200);
  await heardEverythingAnnounced(h.database, [h.app]);
});
afterAll(() => h.close());

const page = (token: string) =>
  h.app.inject({ method: 'GET', url: '/api/shorts/feeds?page=1&size=10', headers: bearer(token) });

const genuineTokenHits = () => h.app.caches.home.stats().find((s) => s.name === 'genuine-tokens')?.hits ?? Number.NaN;

const openWatches = (customerId: number) =>
  rowsOf<{ short_id: number }>(
    h.database.db,
    sql`select short_id from short_views where customer_id = ${customerId} and rewarded_at is null order by short_id`,
  );

describe('a signed-in feed page', () => {
  it('costs one statement once its parts are known, and starts its watches', async () => {
    const viewer = await h.signUp();
    // Whatever the sign-up announced would drop the page read next after it.
    await heardEverythingAnnounced(h.database, [h.app]);
    const first = await page(viewer.token);
    expect(first.statusCode).toBe(200);
    const served = first.json().data.map((item: { shortsId: number }) => item.shortsId);
    expect(served).toHaveLength(10);
    expect(served.every((id: number) => ids.includes(id))).toBe(true);

    let again: Awaited<ReturnType<typeof page>> | undefined;
    const statements = await counter.during(async () => {
      again = await page(viewer.token);
    });
    expect(again?.statusCode).toBe(200);
    expect(again?.body).toBe(first.body);
    expect(statements).toBe(1);
    expect((await openWatches(viewer.customerId)).map((row) => row.short_id)).toEqual(
      [...served].sort((a, b) => a - b),
    );
  });

  it('pages of several viewers at once share the statement that starts their watches, each their own', async () => {
    const viewers = [await h.signUp(), await h.signUp(), await h.signUp(), await h.signUp()];
    await heardEverythingAnnounced(h.database, [h.app]);
    // Each viewer's first page learns their blocked creators and facts.
    for (const viewer of viewers) expect((await page(viewer.token)).statusCode).toBe(200);
    await h.database.db.execute(
      sql`delete from short_views where customer_id = any(${`{${viewers.map((v) => v.customerId).join(',')}}`}::int[])`,
    );

    let pages: Awaited<ReturnType<typeof page>>[] = [];
    const statements = await counter.during(async () => {
      pages = await Promise.all(viewers.map((viewer) => page(viewer.token)));
    });
    expect(pages.map((res) => res.statusCode)).toEqual([200, 200, 200, 200]);
    // One statement per page before: now the first page's, then one for every page that came meanwhile.
    expect(statements).toBeLessThanOrEqual(2);
    for (const [i, viewer] of viewers.entries()) {
      const served = (pages[i]?.json().data ?? []).map((item: { shortsId: number }) => item.shortsId);
      expect(served).toHaveLength(10);
      expect((await openWatches(viewer.customerId)).map((row) => row.short_id)).toEqual(
        [...served].sort((a, b) => a - b),
      );
    }
  });

  it('is refused to a token whose sessions an operator ended, and served again after a new login', async () => {
    const viewer = await h.signUp();
    expect((await page(viewer.token)).statusCode).toBe(200);
    const risk = (await signedInOperator(h, 'RISK')).auth;
    const revoked = await h.app.inject({
      method: 'POST',
      url: `/api/ops/customers/${viewer.customerId}/sessions/revoke`,
      headers: risk,
      payload: { reason: '기기 분실 신고' },
    });
    expect(revoked.statusCode).toBe(200);
    // Its signature was checked once and remembered (ADR 0256); the revocation is judged on each request.
    const hits = genuineTokenHits();
    const refused = await page(viewer.token);
    expect(genuineTokenHits()).toBe(hits + 1);
    expect(refused.statusCode).toBe(401);
    expect(await openWatches(viewer.customerId)).toHaveLength(10);

    h.clock.advance(1000);
    const login = await h.app.inject({
      method: 'POST',
      url: '/auth',
      payload: { emailId: viewer.emailId, pwd: 'password1!' },
    });
    expect((await page(login.json().accessToken)).statusCode).toBe(200);
  });

  it('is refused once its token has expired, though its signature was remembered a moment before', async () => {
    const viewer = await h.signUp();
    expect((await page(viewer.token)).statusCode).toBe(200);
    h.clock.advance(TOKEN_TTL_SECONDS * 1000 - 1000);
    const hits = genuineTokenHits();
    expect((await page(viewer.token)).statusCode).toBe(200);
    h.clock.advance(1000);
    const expired = await page(viewer.token);
    expect(genuineTokenHits()).toBe(hits + 2);
    expect(expired.statusCode).toBe(401);
  });
});
