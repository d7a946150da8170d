import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { shorts } from '../../db/schema';
import { bearer, createHarness, type Harness } from '../../test/harness';

type Comment = { commentId: number; content: string; deletable: boolean };

let h: Harness;
let shortId: number;
beforeAll(async () => {
  h = await createHarness();
  const { customerId } = await h.signUp();
  const [row] = await h.database.db
    .insert(shorts)
    .values({
      customerId,
      title: '댓글 기억',
      content: '',
      videoKey: 'v/c.mp4',
      status: 'READY',
      createdAt: h.clock.now(),
    })
    .returning({ id: shorts.id });
  shortId = row?.id ?? 0;
});
afterAll(() => h.close());

const list = async (token: string): Promise<Comment[]> => {
  const res = await h.app.inject({
    method: 'GET',
    url: `/api/public/shorts/feeds/${shortId}/comments`,
    headers: bearer(token),
  });
  expect(res.statusCode).toBe(200);
  return res.json().data;
};

it("reads a short's comments once, then from memory; my own comment shows at once, deletable by me only", async () => {
  const me = await h.signUp();
  const other = await h.signUp();
  expect(await list(me.token)).toEqual([]);
  const spy = vi.spyOn(h.database.pool, 'query');
  await list(other.token);
  const sent = spy.mock.calls.map(([q]) => (typeof q === 'string' ? q : String((q as { text?: string }).text)));
  spy.mockRestore();
  expect(sent.filter((text) => text.includes('short_comments'))).toEqual([]);

  const added = await h.app.inject({
    method: 'POST',
    url: `/api/shorts/feeds/${shortId}/comments`,
    headers: bearer(me.token),
    payload: { content: '첫 댓글', gno: 0 },
  });
  expect(added.statusCode).toBe(200);
  expect((await list(me.token)).map((c) => [c.content, c.deletable])).toEqual([['첫 댓글', true]]);
  expect((await list(other.token)).map((c) => [c.content, c.deletable])).toEqual([['첫 댓글', false]]);
});

it("hears a comment written past this instance through the database's notification", async () => {
  const { token, customerId } = await h.signUp();
  const before = (await list(token)).length;
  await h.database.pool.query(
    `insert into short_comments (short_id, customer_id, content) values ($1, $2, '다른 서버')`,
    [shortId, customerId],
  );
  await expect.poll(async () => (await list(token)).length, { timeout: 10_000 }).toBe(before + 1);
});
