import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTx } from '../../db/tx';
import { deferred } from '../../test/deferred';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { insertShorts } from '../../test/shorts-fixture';
import { lockReadyShort } from './playable-short';

describe("a short's row lock (comments and reactions)", () => {
  let h: Harness;
  let shortId: number;
  beforeAll(async () => {
    h = await createHarness();
    const creator = await h.signUp();
    [shortId] = (await insertShorts(h.database.db, creator.customerId, [
      { title: '잠금', createdAt: h.clock.now() },
    ])) as [number];
  });
  afterAll(() => h.close());

  /**
   * `work`'s result, or 'waits' as soon as a statement of this test's database waits for a row (pg_locks,
   * asked again and again until `work` settles): the answer comes from PostgreSQL, not from a timer. Row waits
   * show as transaction or tuple locks; an advisory lock of a background job is not one of them.
   */
  async function unlessItWaits<T>(work: Promise<T>): Promise<T | 'waits'> {
    let settled = false;
    const watched = work.finally(() => {
      settled = true;
    });
    const waiting = (async () => {
      while (!settled) {
        const { rows } = await h.database.pool.query(
          `select 1 from pg_locks l join pg_stat_activity a on a.pid = l.pid
            where not l.granted and l.locktype in ('transactionid', 'tuple') and a.datname = current_database()`,
        );
        if (rows.length > 0) return 'waits' as const;
      }
      return watched;
    })();
    return Promise.race([watched, waiting]);
  }

  it('leaves views opening on the locked short, and still queues a second lock on it', async () => {
    const viewer = await h.signUp();
    const locked = deferred<void>();
    const release = deferred<void>();
    const holder = withTx(h.database.db, async (tx) => {
      await lockReadyShort(tx, shortId);
      locked.resolve();
      await release.promise;
    });
    await locked.promise;
    try {
      // The view's foreign-key check (FOR KEY SHARE) must not queue behind a comment or a reaction.
      const view = await unlessItWaits(
        h.app.inject({ method: 'POST', url: `/api/shorts/${shortId}/views`, headers: bearer(viewer.token) }),
      );
      expect(view === 'waits' ? view : view.statusCode).toBe(200);
      // A second comment or reaction on the same short waits for the first: the lock still serialises them.
      const second = withTx(h.database.db, (tx) => lockReadyShort(tx, shortId));
      expect(await unlessItWaits(second)).toBe('waits');
      release.resolve();
      await expect(second).resolves.toEqual({ ownerId: expect.any(Number) });
    } finally {
      release.resolve();
      await holder;
    }
  });
});
