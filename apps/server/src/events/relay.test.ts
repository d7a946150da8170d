import type { DomainEvent } from '@ohgood/contract/domain-events';
import { eq, isNull, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { customers, domainEventRetries, domainEvents } from '../db/schema';
import { CommitListeners, listenedDb, rowsOf, type Tx, withTx } from '../db/tx';
import { deferred } from '../test/deferred';
import { createHarness, type Harness } from '../test/harness';
import { recordEvents } from './record-event';
import { createRelay, type EventConsumer, type RelayLog } from './relay';

/*
 * The outbox relay on a real database (docs/rules/operations.md#O13): several relays, a failing consumer, a
 * relay whose connection dies between its claim and its mark. A consumer's delivery counts once it committed
 * (`afterCommit`), so a delivery rolled back with its transaction is not counted as one.
 */
let h: Harness;
beforeEach(async () => {
  // No relay of the app runs: each test drives its own.
  h = await createHarness({ config: { DISPATCH_EVENTS: false } });
});
afterEach(() => h.close());

const quiet: RelayLog = { warn: () => undefined, error: () => undefined };

/** Records `count` events of one customer in one transaction; returns their ids, ascending. */
async function recordSome(count: number): Promise<number[]> {
  const { customerId } = await h.signUp();
  const events: DomainEvent[] = Array.from({ length: count }, () => ({
    type: 'account.suspension_lifted',
    customerId,
    reason: 'REPAID',
  }));
  await withTx(h.database.db, (tx) => recordEvents(tx, events, h.clock.now()));
  const rows = await h.database.db
    .select({ id: domainEvents.id })
    .from(domainEvents)
    .where(eq(domainEvents.customerId, customerId))
    .orderBy(domainEvents.id);
  return rows.map((row) => row.id);
}

/** A consumer that counts the event ids of each delivery it committed into `committed`. */
function counting(
  name: string,
  committed: number[],
  before: (tx: Tx) => Promise<void> = async () => undefined,
): EventConsumer {
  return {
    name,
    wants: () => true,
    async handle(batch, { tx, afterCommit }) {
      await before(tx);
      afterCommit(() => committed.push(...batch.map((e) => e.id)));
    },
  };
}

const undispatched = async () =>
  (await h.database.db.select().from(domainEvents).where(isNull(domainEvents.dispatchedAt))).length;
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

describe('the outbox relay', () => {
  it('two relays on one database deliver each event once to each consumer', async () => {
    // More than two batches, so the relays take turns claiming and skip each other's locked rows.
    const ids = await recordSome(250);
    const seen = { notices: [] as number[], announcer: [] as number[] };
    const relay = () =>
      createRelay(h.database.db, h.clock, {
        consumers: [counting('notices', seen.notices), counting('announcer', seen.announcer)],
        log: quiet,
      });
    const [a, b] = [relay(), relay()];
    const counts = await Promise.all([a.drain(), b.drain(), a.drain(), b.drain()]);

    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(250);
    expect(sorted(seen.notices)).toEqual(ids);
    expect(sorted(seen.announcer)).toEqual(ids);
    expect(await undispatched()).toBe(0);
  });

  it('a consumer that throws loses only its own part, is retried alone with back-off, and then delivered once', async () => {
    const ids = await recordSome(3);
    const [event] = await h.database.db
      .select()
      .from(domainEvents)
      .where(eq(domainEvents.id, ids[0] ?? 0));
    const customerId = event?.customerId ?? 0;
    const steady: number[] = [];
    const flaky: number[] = [];
    let failuresLeft = 2;
    const warnings: string[] = [];
    const relay = createRelay(h.database.db, h.clock, {
      consumers: [
        counting('webhooks', flaky, async (tx) => {
          if (failuresLeft === 0) return;
          failuresLeft -= 1;
          // What it wrote before the throw rolls back with its part, and only its part.
          await tx.update(customers).set({ pointBalance: 999 }).where(eq(customers.id, customerId));
          throw new Error('the merchant endpoint is down');
        }),
        counting('notices', steady),
      ],
      log: { warn: (_, message) => warnings.push(message), error: quiet.error },
    });

    expect(await relay.drain()).toBe(3);
    expect(steady).toEqual(ids);
    expect(flaky).toEqual([]);
    expect(await undispatched()).toBe(0);
    expect(warnings).toEqual(['event consumer failed; retried alone']);
    const retries = () => h.database.db.select().from(domainEventRetries).orderBy(domainEventRetries.eventId);
    expect(await retries()).toEqual(
      ids.map((eventId) => ({
        consumer: 'webhooks',
        eventId,
        attempts: 1,
        dueAt: new Date(h.clock.now().getTime() + 5_000),
        lastError: 'the merchant endpoint is down',
      })),
    );

    // Not due yet: a drain now hands nothing to anyone.
    expect(await relay.drain()).toBe(0);
    expect(flaky).toEqual([]);
    // Due, and failing again: its next try is twice as far.
    h.clock.advance(5_000);
    await relay.drain();
    expect(flaky).toEqual([]);
    expect((await retries()).map((r) => [r.attempts, r.dueAt])).toEqual(
      ids.map(() => [2, new Date(h.clock.now().getTime() + 10_000)]),
    );
    h.clock.advance(10_000);
    await relay.drain();
    expect(flaky).toEqual(ids);
    expect(await retries()).toEqual([]);
    // Delivered once each: more drains repeat nothing, for either consumer.
    h.clock.advance(3_600_000);
    await relay.drain();
    expect(flaky).toEqual(ids);
    expect(steady).toEqual(ids);
    const [customer] = await h.database.db.select().from(customers).where(eq(customers.id, customerId));
    expect(customer?.pointBalance).toBe(0);
  });

  it('a relay that dies between its claim and its mark leaves the batch to the next, which delivers it once', async () => {
    const ids = await recordSome(5);
    const seen: number[] = [];
    const entered = deferred<number>();
    const release = deferred<void>();
    // The first relay claims the batch and stops inside its consumer, holding the batch's row locks.
    const dying = createRelay(h.database.db, h.clock, {
      consumers: [
        counting('notices', seen, async (tx) => {
          const [row] = await rowsOf<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
          entered.resolve(row?.pid ?? 0);
          await release.promise;
        }),
      ],
      log: quiet,
    });
    const survivor = createRelay(h.database.db, h.clock, { consumers: [counting('notices', seen)], log: quiet });
    const first = dying.drain();
    const holder = await entered.promise;
    // While the batch is held, another relay skips it rather than delivering it a second time.
    expect(await survivor.drain()).toBe(0);
    // The holder's connection dies (a crash, a restart of its instance): its transaction is gone.
    await h.database.db.execute(sql`select pg_terminate_backend(${holder})`);
    release.resolve();
    await expect(first).rejects.toThrow();

    expect(await survivor.drain()).toBe(5);
    expect(seen).toEqual(ids);
    expect(await undispatched()).toBe(0);
  });

  it('a started relay delivers its own app’s commit at once, without waiting for a poll', async () => {
    const { customerId } = await h.signUp();
    const commits = new CommitListeners();
    const delivered = deferred<number[]>();
    const relay = createRelay(h.database.db, h.clock, {
      consumers: [
        {
          name: 'notices',
          wants: () => true,
          handle: async (batch, { afterCommit }) => afterCommit(() => delivered.resolve(batch.map((e) => e.id))),
        },
      ],
      commits,
      log: quiet,
      // No poll within the test's time: only the commit can wake it.
      pollMs: 3_600_000,
    });
    relay.start();
    try {
      // The start's own drain finds nothing; the commit below wakes the next one.
      await relay.drain();
      await withTx(listenedDb(h.database.db, commits), (tx) =>
        recordEvents(tx, [{ type: 'account.suspension_lifted', customerId, reason: 'REPAID' }], h.clock.now()),
      );
      const [recorded] = await h.database.db.select().from(domainEvents).where(eq(domainEvents.customerId, customerId));
      expect(await delivered.promise).toEqual([recorded?.id]);
    } finally {
      await relay.stop();
    }
  });
  it('a started relay takes a failed delivery again at its periodic look once it is due', async () => {
    const ids = await recordSome(2);
    const retried = deferred<number[]>();
    let failed = false;
    const relay = createRelay(h.database.db, h.clock, {
      consumers: [
        {
          name: 'webhooks',
          wants: () => true,
          async handle(batch, { afterCommit }) {
            if (!failed) {
              failed = true;
              throw new Error('the merchant endpoint is down');
            }
            afterCommit(() => retried.resolve(batch.map((e) => e.id)));
          },
        },
      ],
      log: quiet,
      pollMs: 20,
    });
    // The first delivery fails; its retry is due five seconds later on the app clock.
    expect(await relay.drain()).toBe(2);
    expect(failed).toBe(true);
    h.clock.advance(5_000);
    relay.start();
    try {
      expect(await retried.promise).toEqual(ids);
    } finally {
      await relay.stop();
    }
  });
});
