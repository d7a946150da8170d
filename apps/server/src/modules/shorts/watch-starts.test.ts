import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rowsOf, withTx } from '../../db/tx';
import { commitSetting, commitSettingsAround, serverCommitSetting } from '../../test/commit-setting';
import { countingDb } from '../../test/counting-db';
import { createHarness, type Harness } from '../../test/harness';
import { insertShorts } from '../../test/shorts-fixture';
import { createWatchStartQueue, openView, startWatches } from './watch-starts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const openWatches = (customerId: number) =>
  rowsOf<{ short_id: number }>(
    h.database.db,
    sql`select short_id from short_views where customer_id = ${customerId} and rewarded_at is null order by short_id`,
  );

it('a view and a served page start watches whose transactions alone commit without waiting for the disk (ADR 0162)', async () => {
  const { customerId } = await h.signUp();
  const [first, second] = await insertShorts(h.database.db, customerId, [
    { title: '시작 하나', createdAt: h.clock.now() },
    { title: '시작 둘', createdAt: h.clock.now() },
  ]);
  if (first === undefined || second === undefined) throw new Error('the fixture inserted no shorts');

  const opened = await commitSettingsAround(h.database.db, (tx) => openView(tx, first, customerId, h.clock.now()));
  expect(opened).toMatchObject({ before: 'on', after: 'off', result: expect.any(Number) });
  const served = await commitSettingsAround(h.database.db, (tx) =>
    startWatches(tx, [{ customerId, shortIds: [first, second], at: h.clock.now() }]),
  );
  expect(served).toMatchObject({ before: 'on', after: 'off' });
  // The view's open watch stays; the page started one for the other short only.
  expect(await openWatches(customerId)).toEqual([{ short_id: first }, { short_id: second }]);

  // Only those transactions: the next one commits as the server does.
  expect(await withTx(h.database.db, commitSetting)).toBe(await serverCommitSetting(h.database.db));
});

it('opens no view of a short that does not exist or is not playable', async () => {
  const { customerId } = await h.signUp();
  const [hidden] = await insertShorts(h.database.db, customerId, [{ title: '숨김', createdAt: h.clock.now() }]);
  if (hidden === undefined) throw new Error('the fixture inserted no short');
  await h.database.db.execute(sql`update shorts set status = 'HIDDEN' where id = ${hidden}`);
  expect(await openView(h.database.db, hidden, customerId, h.clock.now())).toBeNull();
  expect(await openView(h.database.db, 2_000_000_000, customerId, h.clock.now())).toBeNull();
  expect(await openWatches(customerId)).toEqual([]);
});

const startsOf = (customerIds: number[]) =>
  rowsOf<{ customer_id: number; short_id: number; started_at: string }>(
    h.database.db,
    sql`select customer_id, short_id, started_at::text from short_views
         where customer_id = any(${`{${customerIds.join(',')}}`}::int[]) and rewarded_at is null
         order by customer_id, short_id`,
  );

it('pages served together start their watches in one statement, each pair once at its first serving', async () => {
  const [a, b] = [await h.signUp(), await h.signUp()];
  const [one, two, three] = await insertShorts(h.database.db, a.customerId, [
    { title: '함께 하나', createdAt: h.clock.now() },
    { title: '함께 둘', createdAt: h.clock.now() },
    { title: '함께 셋', createdAt: h.clock.now() },
  ]);
  if (one === undefined || two === undefined || three === undefined) throw new Error('the fixture inserted no shorts');
  const { db, counter } = countingDb(h.database.db);
  const queue = createWatchStartQueue(db);
  const early = h.clock.now();
  const late = new Date(early.getTime() + 5_000);

  // Three pages in one turn, the same customer twice (a reload racing the first load): one statement.
  await Promise.all([
    queue.start(a.customerId, [one, two], late),
    queue.start(b.customerId, [two, three], late),
    queue.start(a.customerId, [two, three], early),
  ]);
  expect(counter.statements).toBe(1);
  const at = (date: Date) => date.toISOString().replace('T', ' ').replace('.000Z', '+00');
  expect(await startsOf([a.customerId, b.customerId])).toEqual([
    { customer_id: a.customerId, short_id: one, started_at: at(late) },
    { customer_id: a.customerId, short_id: two, started_at: at(early) },
    { customer_id: a.customerId, short_id: three, started_at: at(early) },
    { customer_id: b.customerId, short_id: two, started_at: at(late) },
    { customer_id: b.customerId, short_id: three, started_at: at(late) },
  ]);

  // A page served later in the same turn (after other work's microtasks, as the next connection's request
  // is) still goes with it: the statement leaves at the end of the turn.
  counter.statements = 0;
  const sameTurn = queue.start(a.customerId, [three], late);
  await Promise.resolve();
  await Promise.resolve();
  await Promise.all([sameTurn, queue.start(b.customerId, [one, three], late)]);
  expect(counter.statements).toBe(1);

  // A page served while a statement is out waits for the next one, with whatever else arrived meanwhile.
  counter.statements = 0;
  const first = queue.start(b.customerId, [one], late);
  // The next turn: the first page's statement has left.
  await new Promise((resolve) => setImmediate(resolve));
  expect(counter.statements).toBe(1);
  const meanwhile = [queue.start(a.customerId, [one], late), queue.start(b.customerId, [two], late)];
  await Promise.all([first, ...meanwhile]);
  expect(counter.statements).toBe(2);
  expect(await startsOf([b.customerId])).toContainEqual({
    customer_id: b.customerId,
    short_id: one,
    started_at: at(late),
  });
});

it('a shared statement that fails leaves each page to start alone: only the page with a deleted short fails', async () => {
  const [a, b] = [await h.signUp(), await h.signUp()];
  const [kept, deleted] = await insertShorts(h.database.db, a.customerId, [
    { title: '남는 영상', createdAt: h.clock.now() },
    { title: '지운 영상', createdAt: h.clock.now() },
  ]);
  if (kept === undefined || deleted === undefined) throw new Error('the fixture inserted no shorts');
  // Deleted after its page was read from the ranking (the creator removed it meanwhile).
  await h.database.db.execute(sql`delete from shorts where id = ${deleted}`);
  const queue = createWatchStartQueue(h.database.db);

  const [withDeleted, fine] = await Promise.allSettled([
    queue.start(a.customerId, [kept, deleted], h.clock.now()),
    queue.start(b.customerId, [kept], h.clock.now()),
  ]);
  expect(withDeleted.status).toBe('rejected');
  expect(fine.status).toBe('fulfilled');
  expect(await openWatches(b.customerId)).toEqual([{ short_id: kept }]);
  expect(await openWatches(a.customerId)).toEqual([]);
  // The queue goes on after a failure.
  await queue.start(a.customerId, [kept], h.clock.now());
  expect(await openWatches(a.customerId)).toEqual([{ short_id: kept }]);
});

it('a backlog of pages goes out in statements of at most a hundred pages, every watch written', async () => {
  const viewer = await h.signUp();
  const ids = await insertShorts(
    h.database.db,
    viewer.customerId,
    Array.from({ length: 250 }, (_, i) => ({ title: `밀린 ${i}`, createdAt: h.clock.now() })),
  );
  const { db, counter } = countingDb(h.database.db);
  const queue = createWatchStartQueue(db);
  await Promise.all(ids.map((id) => queue.start(viewer.customerId, [id], h.clock.now())));
  expect(counter.statements).toBe(3);
  expect((await openWatches(viewer.customerId)).map((row) => row.short_id)).toEqual([...ids].sort((a, b) => a - b));
});

it("a page's customer and time go once for all its shorts: an empty page among them shifts no one's watches", async () => {
  const [a, b, c] = [await h.signUp(), await h.signUp(), await h.signUp()];
  const [one, two] = await insertShorts(h.database.db, a.customerId, [
    { title: '자리 하나', createdAt: h.clock.now() },
    { title: '자리 둘', createdAt: h.clock.now() },
  ]);
  if (one === undefined || two === undefined) throw new Error('the fixture inserted no shorts');
  const early = h.clock.now();
  const late = new Date(early.getTime() + 7_000);
  await startWatches(h.database.db, [
    { customerId: a.customerId, shortIds: [], at: early },
    { customerId: b.customerId, shortIds: [one, two], at: late },
    { customerId: c.customerId, shortIds: [two], at: early },
  ]);
  expect(await openWatches(a.customerId)).toEqual([]);
  expect((await openWatches(b.customerId)).map((row) => row.short_id)).toEqual([one, two].sort((x, y) => x - y));
  expect((await openWatches(c.customerId)).map((row) => row.short_id)).toEqual([two]);
  const started = await rowsOf<{ customer_id: number; started_at: Date }>(
    h.database.db,
    sql`select customer_id, started_at from short_views where customer_id in (${b.customerId}, ${c.customerId})`,
  );
  for (const row of started) {
    expect(new Date(row.started_at).getTime()).toBe((row.customer_id === b.customerId ? late : early).getTime());
  }
  expect(started).toHaveLength(3);
});
