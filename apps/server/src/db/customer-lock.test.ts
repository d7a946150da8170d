import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lockedPointBalance } from '../modules/points/ledger';
import { deferred } from '../test/deferred';
import { insertCustomer } from '../test/desk-fixture';
import { openTestDatabase, type TestDatabase } from '../test/test-database';
import { lockCustomer } from './locks';
import { notifications } from './schema';
import { isLockTimeout, type Tx, withTx } from './tx';

/*
 * The customer lock (step 1 of the lock order) makes one customer's money paths take turns, and nothing
 * else: an insert that merely refers to the customer (a notice the relay writes, a request a validate
 * reserves) checks its foreign key with FOR KEY SHARE, which a FOR UPDATE lock would block. Under load that
 * made the relay's batch of notices and the next payments of the same customers wait on one another.
 * Each wait below is bounded by a lock timeout: a regression fails with it instead of hanging.
 */

let database: TestDatabase;
let customerId: number;
let notice = 0;

beforeAll(async () => {
  database = await openTestDatabase();
  customerId = await insertCustomer(database.db);
});
afterAll(() => database.close());

const boundedWait = (tx: Tx) => tx.execute(sql`set local lock_timeout = '3s'`);

/** A notice for the customer, written as the relay's notice consumer writes one (its FK check included). */
async function insertNotice(tx: Tx) {
  notice += 1;
  await tx.insert(notifications).values({
    customerId,
    dedupeKey: `customer-lock-test:${Date.now()}:${notice}`,
    kind: 'test',
    category: 'billing',
    title: '알림',
    body: '본문',
    link: '/',
  });
}

/** Runs `work` in a transaction that holds its locks until `release` resolves; `held` resolves once they are taken. */
function holding(lock: (tx: Tx) => Promise<unknown>) {
  const held = deferred<void>();
  const release = deferred<void>();
  const done = withTx(database.db, async (tx) => {
    await boundedWait(tx);
    await lock(tx);
    held.resolve();
    await release.promise;
  });
  done.catch(held.reject);
  return { held: held.promise, release: () => release.resolve(), done };
}

it('a payment holding the customer lock lets a notice for that customer commit meanwhile', async () => {
  const payment = holding((tx) => lockCustomer(tx, customerId));
  await payment.held;
  try {
    await withTx(database.db, async (tx) => {
      await boundedWait(tx);
      await insertNotice(tx);
    });
  } finally {
    payment.release();
    await payment.done;
  }
});

it('a notice in flight for the customer lets the payment take the customer lock meanwhile', async () => {
  const relay = holding(insertNotice);
  await relay.held;
  try {
    await withTx(database.db, async (tx) => {
      await boundedWait(tx);
      await lockCustomer(tx, customerId);
      // The later locks of the same row on money paths take the same mode, never a stronger one.
      await lockedPointBalance(tx, customerId);
    });
  } finally {
    relay.release();
    await relay.done;
  }
});

it('two money paths of one customer still take turns', async () => {
  const first = holding((tx) => lockCustomer(tx, customerId));
  await first.held;
  const second = withTx(database.db, async (tx) => {
    await tx.execute(sql`set local lock_timeout = '100ms'`);
    await lockCustomer(tx, customerId);
  });
  try {
    await expect(second).rejects.toSatisfy(isLockTimeout);
  } finally {
    first.release();
    await first.done;
  }
});
