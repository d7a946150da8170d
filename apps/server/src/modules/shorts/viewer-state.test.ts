import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { viewersOfNotification } from '../../cache-changes';
import { shorts } from '../../db/schema';
import { bearer, createHarness, type Harness } from '../../test/harness';

type Item = { shortsId: number; myReaction: string; subscriptionStatus: string };

describe("a signed-in viewer's reactions and subscriptions, remembered per instance", () => {
  let h: Harness;
  let creator: number;
  let ids: number[];
  beforeAll(async () => {
    h = await createHarness();
    creator = (await h.signUp()).customerId;
    const now = h.clock.now();
    const rows = await h.database.db
      .insert(shorts)
      .values(
        [1, 2, 3].map((i) => ({
          customerId: creator,
          title: `기억 ${i}`,
          content: '',
          videoKey: `v/m${i}.mp4`,
          status: 'READY' as const,
          likeCount: 10 - i,
          createdAt: now,
        })),
      )
      .returning({ id: shorts.id });
    ids = rows.map((r) => r.id);
  });
  afterAll(() => h.close());

  const page = async (token: string): Promise<Item[]> => {
    const res = await h.app.inject({ method: 'GET', url: '/api/shorts/feeds?page=1&size=10', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };
  const mine = (items: Item[], id: number | undefined) => items.find((i) => i.shortsId === id);

  /** The SQL the app sends while `work` runs (a spy on the real pool: every query still reaches PostgreSQL). */
  async function sqlDuring(work: () => Promise<unknown>): Promise<string[]> {
    const spy = vi.spyOn(h.database.pool, 'query');
    try {
      await work();
      return spy.mock.calls.map(([query]) =>
        typeof query === 'string' ? query : String((query as { text?: string }).text),
      );
    } finally {
      spy.mockRestore();
    }
  }

  it('pages again without asking the database about the viewer; their own like and follow show at once', async () => {
    const { token } = await h.signUp();
    let first: Item[] = [];
    const firstSql = await sqlDuring(async () => {
      first = await page(token);
    });
    expect(mine(first, ids[0])?.myReaction).toBe('none');
    // The first page asks (the spy sees the app's queries) ...
    expect(firstSql.some((text) => text.includes('short_reactions'))).toBe(true);
    // ... the next one does not.
    const again = await sqlDuring(() => page(token));
    expect(again.filter((text) => /short_reactions|short_subscriptions/.test(text))).toEqual([]);

    const liked = await h.app.inject({
      method: 'POST',
      url: `/api/shorts/feeds/${ids[0]}/reactions`,
      headers: bearer(token),
      payload: { shortsId: ids[0], type: 'like' },
    });
    expect(liked.statusCode).toBe(200);
    const followed = await h.app.inject({
      method: 'POST',
      url: `/api/shorts/subscribe/${creator}`,
      headers: bearer(token),
    });
    expect([200, 201]).toContain(followed.statusCode);
    const after = await page(token);
    expect(mine(after, ids[0])).toMatchObject({ myReaction: 'like', subscriptionStatus: 'SUBSCRIBED' });
    expect(mine(after, ids[1])?.myReaction).toBe('none');
  });

  it("hears another instance's writes through the database's notification", async () => {
    const { token, customerId } = await h.signUp();
    expect(mine(await page(token), ids[1])?.myReaction).toBe('none');
    // Written past this instance (another server, a job): only the 'viewer_changed' notification tells it.
    await h.database.pool.query(
      `insert into short_reactions (short_id, customer_id, type) values ($1, $2, 'dislike')`,
      [ids[1], customerId],
    );
    await expect.poll(async () => mine(await page(token), ids[1])?.myReaction, { timeout: 10_000 }).toBe('dislike');
    await h.database.pool.query(`delete from short_reactions where short_id = $1 and customer_id = $2`, [
      ids[1],
      customerId,
    ]);
    await expect.poll(async () => mine(await page(token), ids[1])?.myReaction, { timeout: 10_000 }).toBe('none');
  });

  it('reads notification payloads: ids, or everyone', () => {
    expect(viewersOfNotification('3,17,x,0')).toEqual([3, 17]);
    expect(viewersOfNotification('*')).toBe('*');
  });
});
