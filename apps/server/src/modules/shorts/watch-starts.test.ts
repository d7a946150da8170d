import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rowsOf, withTx } from '../../db/tx';
import { commitSetting, commitSettingsAround, serverCommitSetting } from '../../test/commit-setting';
import { createHarness, type Harness } from '../../test/harness';
import { insertShorts } from '../../test/shorts-fixture';
import { openView, startWatches } from './watch-starts';

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
    startWatches(tx, customerId, [first, second], h.clock.now()),
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
