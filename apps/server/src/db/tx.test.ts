import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deferred } from '../test/deferred';
import { createHarness, type Harness } from '../test/harness';
import { customers } from './schema';
import { builtOnce, CommitListeners, listenedDb, noteForCommit, rowsOf, txRetries, withTx } from './tx';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

it('a transaction that meets a real deadlock is run again, and both transactions commit', async () => {
  const a = (await h.signUp()).customerId;
  const b = (await h.signUp()).customerId;
  const db = h.database.db;
  const lock = (tx: Parameters<Parameters<typeof withTx>[1]>[0], id: number) =>
    tx.select({ id: customers.id }).from(customers).where(eq(customers.id, id)).for('update');
  const bump = (tx: Parameters<Parameters<typeof withTx>[1]>[0], id: number) =>
    tx
      .update(customers)
      .set({ pointBalance: sql`${customers.pointBalance} + 1` })
      .where(eq(customers.id, id));
  // Each transaction's first attempt takes its first row, then waits for the other's first row: a cycle,
  // which PostgreSQL breaks by failing one of them with 40P01.
  const firstHeld = [deferred<void>(), deferred<void>()];
  const attempts = [0, 0];
  const crossed = (me: 0 | 1, mine: number, theirs: number) =>
    withTx(db, async (tx) => {
      attempts[me] = (attempts[me] ?? 0) + 1;
      await lock(tx, mine);
      if (attempts[me] === 1) {
        firstHeld[me]?.resolve();
        await firstHeld[1 - me]?.promise;
      }
      await lock(tx, theirs);
      await bump(tx, mine);
      await bump(tx, theirs);
    });
  const deadlocksBefore = txRetries.deadlocks;
  await Promise.all([crossed(0, a, b), crossed(1, b, a)]);
  // Usually PostgreSQL fails one of the two. On a busy machine both backends can run their deadlock check
  // before the first victim has let go, and both are failed (a CI run met that), and their retries can cross
  // again: each failure is one more attempt, and both transactions still commit.
  const deadlocks = txRetries.deadlocks - deadlocksBefore;
  expect(deadlocks).toBeGreaterThanOrEqual(1);
  expect((attempts[0] ?? 0) + (attempts[1] ?? 0)).toBe(2 + deadlocks);
  const balances = await db.select({ id: customers.id, points: customers.pointBalance }).from(customers);
  expect(balances.filter((row) => row.id === a || row.id === b).map((row) => row.points)).toEqual([2, 2]);
});

it('a statement built once takes each call its own values, on the database or inside a transaction', async () => {
  const a = await h.signUp();
  const b = await h.signUp();
  const db = h.database.db;
  const nameOf = builtOnce<{ name: string }>(sql`select name from customers where id = ${sql.placeholder('id')}`);
  expect(await nameOf(db, { id: a.customerId })).toEqual([{ name: (await nameRow(a.customerId)).name }]);
  expect(await nameOf(db, { id: b.customerId })).toEqual([{ name: (await nameRow(b.customerId)).name }]);
  // Inside a transaction it runs on that transaction's connection: it sees the transaction's own change.
  let inside: Array<{ name: string }> = [];
  await withTx(db, async (tx) => {
    await tx.update(customers).set({ name: '바뀐이름' }).where(eq(customers.id, a.customerId));
    inside = await nameOf(tx, { id: a.customerId });
    tx.rollback();
  }).catch(() => undefined);
  expect(inside).toEqual([{ name: '바뀐이름' }]);
  expect((await nameRow(a.customerId)).name).not.toBe('바뀐이름');
});

async function nameRow(id: number) {
  const [row] = await h.database.db.select({ name: customers.name }).from(customers).where(eq(customers.id, id));
  if (!row) throw new Error('no such customer');
  return row;
}

it('commit listeners hear a noted topic after the commit, only on their own handle, never after a rollback', async () => {
  const heard: string[] = [];
  const commits = new CommitListeners();
  const stop = commits.on('events', () => heard.push('events'));
  const mine = listenedDb(h.database.db, commits);
  const noting = (db: typeof mine, fail = false) =>
    withTx(db, async (tx) => {
      const before = heard.length;
      noteForCommit(tx, 'events');
      noteForCommit(tx, 'events');
      // Heard only once the transaction has committed, not when the topic is noted.
      expect(heard).toHaveLength(before);
      if (fail) throw new Error('the fact failed');
    });

  await noting(mine);
  expect(heard).toEqual(['events']);
  // Another app's handle (here the bare one) tells these listeners nothing.
  await noting(h.database.db);
  await expect(noting(mine, true)).rejects.toThrow('the fact failed');
  expect(heard).toEqual(['events']);
  // The handle is the same database underneath.
  expect((await rowsOf<{ one: number }>(mine, sql`select 1 as one`))[0]?.one).toBe(1);
  stop();
  await noting(mine);
  expect(heard).toEqual(['events']);
});
