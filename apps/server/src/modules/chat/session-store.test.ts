import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rowsOf, type Tx, withTx } from '../../db/tx';
import { createHarness, type Harness } from '../../test/harness';
import { initialState } from './engine';
import { readSessionForTurn, saveSession } from './session-store';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const commitSetting = async (tx: Tx) =>
  (await rowsOf<{ setting: string }>(tx, sql`select current_setting('synchronous_commit') as setting`))[0]?.setting;

it("saves a turn's state, and that transaction alone commits without waiting for the disk (ADR 0140)", async () => {
  const { customerId } = await h.signUp();
  const state = { ...initialState(), shownIds: [3, 1] };
  const now = h.clock.now();
  const settings = await withTx(h.database.db, async (tx) => {
    // As on a durable server (the test cluster itself commits without waiting).
    await tx.execute(sql`set local synchronous_commit = on`);
    const before = await commitSetting(tx);
    await saveSession(tx, 'session-store-test', customerId, state, now);
    return { before, after: await commitSetting(tx) };
  });
  expect(settings).toEqual({ before: 'on', after: 'off' });
  // The setting was the saving transaction's own: the next one starts from the server's.
  const serverDefault = (
    await rowsOf<{ value: string }>(
      h.database.db,
      sql`select reset_val as value from pg_settings where name = 'synchronous_commit'`,
    )
  )[0]?.value;
  expect(await withTx(h.database.db, commitSetting)).toBe(serverDefault);
  const saved = await withTx(h.database.db, (tx) => readSessionForTurn(tx, 'session-store-test'));
  expect(saved).toMatchObject({ customerId, flow: state.flow, shownProductIds: [3, 1], updatedAtMs: now.getTime() });
});
