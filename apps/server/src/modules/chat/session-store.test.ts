import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withTx } from '../../db/tx';
import { commitSetting, commitSettingsAround, serverCommitSetting } from '../../test/commit-setting';
import { createHarness, type Harness } from '../../test/harness';
import { initialState } from './engine';
import { createSession, readSession, updateSession } from './session-store';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

it("saves a turn's state, and that transaction alone commits without waiting for the disk (ADR 0140)", async () => {
  const { customerId } = await h.signUp();
  const state = { ...initialState(), shownIds: [3, 1] };
  const now = h.clock.now();
  const created = await commitSettingsAround(h.database.db, (tx) =>
    createSession(tx, 'session-store-test', customerId, state, now),
  );
  expect(created).toMatchObject({ before: 'on', after: 'off' });
  // The setting was the saving transaction's own: the next one starts from the server's.
  expect(await withTx(h.database.db, commitSetting)).toBe(await serverCommitSetting(h.database.db));
  const saved = await readSession(h.database.db, customerId, 'session-store-test', { lock: false });
  expect(saved).toMatchObject({ customerId, flow: state.flow, shownProductIds: [3, 1], updatedAtMs: now.getTime() });
  if (!saved) throw new Error('no session');
  const updated = await commitSettingsAround(h.database.db, (tx) =>
    updateSession(tx, saved, { ...state, shownIds: [3, 1, 2] }, now),
  );
  expect(updated).toMatchObject({ before: 'on', after: 'off', result: true });
});

it('saves over the version a turn read only: a turn that read before another saved runs again (ADR 0245)', async () => {
  const { customerId } = await h.signUp();
  const { db } = h.database;
  await withTx(db, (tx) => createSession(tx, 'session-version-test', customerId, initialState(), h.clock.now()));
  const first = await readSession(db, customerId, 'session-version-test', { lock: false });
  const second = await readSession(db, customerId, 'session-version-test', { lock: false });
  if (!first || !second) throw new Error('no session');
  // Both read the same version; the clock stands still, so only the row's version tells the saves apart.
  expect(await updateSession(db, first, { ...initialState(), shownIds: [1] }, h.clock.now())).toBe(true);
  expect(await updateSession(db, second, { ...initialState(), shownIds: [2] }, h.clock.now())).toBe(false);
  const now = await readSession(db, customerId, 'session-version-test', { lock: false });
  expect(now?.shownProductIds).toEqual([1]);
  // A cleared session is not brought back by a turn that read it before.
  await db.execute(sql`delete from chat_sessions where id = 'session-version-test'`);
  if (!now) throw new Error('no session');
  expect(await updateSession(db, now, initialState(), h.clock.now())).toBe(false);
});
