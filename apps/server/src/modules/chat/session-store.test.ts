import { afterAll, beforeAll, expect, it } from 'vitest';
import { withTx } from '../../db/tx';
import { commitSetting, commitSettingsAround, serverCommitSetting } from '../../test/commit-setting';
import { createHarness, type Harness } from '../../test/harness';
import { initialState } from './engine';
import { readSessionForTurn, saveSession } from './session-store';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

it("saves a turn's state, and that transaction alone commits without waiting for the disk (ADR 0140)", async () => {
  const { customerId } = await h.signUp();
  const state = { ...initialState(), shownIds: [3, 1] };
  const now = h.clock.now();
  const settings = await commitSettingsAround(h.database.db, (tx) =>
    saveSession(tx, 'session-store-test', customerId, state, now),
  );
  expect(settings).toMatchObject({ before: 'on', after: 'off' });
  // The setting was the saving transaction's own: the next one starts from the server's.
  expect(await withTx(h.database.db, commitSetting)).toBe(await serverCommitSetting(h.database.db));
  const saved = await withTx(h.database.db, (tx) => readSessionForTurn(tx, customerId, 'session-store-test'));
  expect(saved).toMatchObject({ customerId, flow: state.flow, shownProductIds: [3, 1], updatedAtMs: now.getTime() });
});
