import { type DomainEvent, domainEvent } from '@ohgood/contract/domain-events';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { domainEventRetries, domainEvents } from '../db/schema';
import { afterCommit, type CommitListeners, rowsOf, type Tx, withTx } from '../db/tx';
import type { Clock } from '../lib/clock';
import { coalesced } from '../lib/coalesced';
import { type SpacedWake, spacedWake } from '../lib/spaced-wake';
import { EVENTS_COMMITTED } from './record-event';

/** One event of the outbox as a consumer gets it: its row id (stable, for dedupe keys), the event, its time. */
export interface RecordedEvent {
  id: number;
  event: DomainEvent;
  occurredAt: Date;
}

/** What a consumer's delivery runs in. */
export interface Delivery {
  /**
   * The relay's transaction (a savepoint of it, the consumer's own): what the batch causes is written here and
   * commits with the events' mark, or not at all.
   */
  tx: Tx;
  now: Date;
  /** Runs `callback` once this delivery has committed (a wake-up for work that reads what it wrote). */
  afterCommit(callback: () => void): void;
}

/**
 * A consumer of the domain-event outbox (notices, the merchant status announcer, webhooks, …), listed where
 * the app is composed. It gets each event it `wants` once per committed delivery (docs/rules/operations.md#O13):
 * with the rest of its batch, in the relay's transaction, or later and alone when it failed.
 */
export interface EventConsumer {
  /** Stable across releases: a failed delivery waits for its retry under this name. */
  readonly name: string;
  wants(event: DomainEvent): boolean;
  /** Handles a batch (oldest first, never empty); a throw rolls back only this consumer's part. */
  handle(batch: readonly RecordedEvent[], delivery: Delivery): Promise<void>;
}

/** `wants` for a consumer of some event types only. */
export function eventTypes(...types: DomainEvent['type'][]): (event: DomainEvent) => boolean {
  const wanted = new Set<string>(types);
  return (event) => wanted.has(event.type);
}

export interface RelayLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface RelayOptions {
  consumers: readonly EventConsumer[];
  log: RelayLog;
  /** Wakes the relay when a transaction of this app that recorded events commits. */
  commits?: CommitListeners;
  /** How often `start()` looks for events other processes recorded (its own commits wake it at once). */
  pollMs?: number;
  /** The least time between two drains started by wake-ups (ADRs 0164, 0169). */
  spacingMs?: number;
}

export interface Relay {
  /**
   * Delivers every undispatched event and every retry due; resolves with how many events it dispatched, once a
   * drain that began after the call has finished. Rejects when the database failed it (nothing is lost: the
   * events stay undispatched).
   */
  drain(): Promise<number>;
  /** One periodic look, for whatever drives it (`start()`'s timer, or a job registry): errors are logged. */
  poll(): Promise<void>;
  /** Listens for this app's commits, polls every `pollMs`, and drains once now. */
  start(): void;
  /** Stops listening and polling; resolves once a drain in flight has settled. */
  stop(): Promise<void>;
  /** What waits, cluster-wide: events not yet dispatched, and failed deliveries by consumer (for metrics). */
  backlog(): Promise<OutboxBacklog>;
}

export interface OutboxBacklog {
  undispatched: number;
  retries: Array<{ consumer: string; count: number }>;
}

const BATCH = 100;
const POLL_MS = 1_000;
/**
 * Under load the events of this span share one drain (its transaction) instead of one each; a commit after a
 * quiet spell is delivered at once. Notices and the PAID announcement wait at most this long.
 */
const SPACING_MS = 250;
/** A failed delivery is retried after 5 s, doubling per failure up to an hour, and never dropped. */
const RETRY_FIRST_SECONDS = 5;
const RETRY_MAX_SECONDS = 3_600;

/**
 * The outbox relay (ADR 0213). Each batch is claimed oldest first with `FOR UPDATE SKIP LOCKED` (instances never
 * wait on or repeat each other's batch; the row locks are the lease, so a process that dies mid-batch releases
 * it with its connection and the next drain delivers the batch again), handed to each consumer in a savepoint
 * of its own and marked dispatched in the same transaction. A consumer that throws loses only its part: its
 * events get a `domain_event_retries` row each and are retried for it alone, with back-off, while the others'
 * work commits with the mark. Drains never overlap on one instance, and a burst of wake-ups costs at most one
 * more drain.
 */
export function createRelay(db: Db, clock: Clock, options: RelayOptions): Relay {
  const { consumers, log } = options;
  const names = consumers.map((consumer) => consumer.name);
  if (new Set(names).size !== names.length) throw new Error(`event consumers share a name: ${names.join(', ')}`);

  async function deliver(
    tx: Tx,
    consumer: EventConsumer,
    batch: readonly RecordedEvent[],
    now: Date,
  ): Promise<{ ok: true } | { ok: false; error: unknown }> {
    const after: Array<() => void> = [];
    try {
      await tx.transaction((savepoint) =>
        consumer.handle(batch, { tx: savepoint, now, afterCommit: (callback) => after.push(callback) }),
      );
    } catch (error) {
      log.warn({ err: error, consumer: consumer.name, events: batch.length }, 'event consumer failed; retried alone');
      return { ok: false, error };
    }
    for (const callback of after) afterCommit(tx, callback);
    return { ok: true };
  }

  async function deliverBatch(tx: Tx, now: Date): Promise<number> {
    const rows = await rowsOf<EventRow>(
      tx,
      sql`select id, payload, occurred_at from ${domainEvents} where dispatched_at is null
        order by id limit ${BATCH} for update skip locked`,
    );
    if (rows.length === 0) return 0;
    const events = recordedOf(rows);
    for (const consumer of consumers) {
      const batch = events.filter(({ event }) => consumer.wants(event));
      if (batch.length === 0) continue;
      const outcome = await deliver(tx, consumer, batch, now);
      if (!outcome.ok) await scheduleRetries(tx, consumer.name, batch, now, outcome.error);
    }
    await tx
      .update(domainEvents)
      .set({ dispatchedAt: now })
      .where(
        inArray(
          domainEvents.id,
          rows.map((row) => Number(row.id)),
        ),
      );
    return rows.length;
  }

  /** One batch of `consumer`'s due retries; resolves with how many it took. */
  async function retryBatch(tx: Tx, consumer: EventConsumer, now: Date): Promise<number> {
    const rows = await rowsOf<EventRow>(
      tx,
      sql`select e.id, e.payload, e.occurred_at from ${domainEventRetries} r
        join ${domainEvents} e on e.id = r.event_id
        where r.consumer = ${consumer.name} and r.due_at <= ${now}
        order by r.event_id limit ${BATCH} for update of r skip locked`,
    );
    if (rows.length === 0) return 0;
    const ids = rows.map((row) => Number(row.id));
    const batch = recordedOf(rows);
    const outcome = batch.length > 0 ? await deliver(tx, consumer, batch, now) : ({ ok: true } as const);
    const mine = and(eq(domainEventRetries.consumer, consumer.name), inArray(domainEventRetries.eventId, ids));
    if (outcome.ok) await tx.delete(domainEventRetries).where(mine);
    else
      await tx
        .update(domainEventRetries)
        .set({
          attempts: sql`${domainEventRetries.attempts} + 1`,
          dueAt: sql`${now}::timestamptz + make_interval(secs => least(${RETRY_MAX_SECONDS},
            ${RETRY_FIRST_SECONDS} * power(2, ${domainEventRetries.attempts})))`,
          lastError: errorText(outcome.error),
        })
        .where(mine);
    return rows.length;
  }

  /** Batches until a short one: a short batch took every row there was to take. */
  async function untilShort(batch: (tx: Tx, now: Date) => Promise<number>): Promise<number> {
    let total = 0;
    for (;;) {
      const count = await withTx(db, (tx) => batch(tx, clock.now()));
      total += count;
      if (count < BATCH) return total;
    }
  }

  /**
   * Retries are looked for by the periodic look (and an explicit drain), not by every commit's wake-up: under
   * load a wake-up comes every spacing, and the fresh events are all it is for (ADR 0169: no round trip
   * beside the requests that finds nothing).
   */
  let retriesAsked = false;
  const run = coalesced(async () => {
    const withRetries = retriesAsked;
    retriesAsked = false;
    const dispatched = await untilShort(deliverBatch);
    if (withRetries) for (const consumer of consumers) await untilShort((tx, now) => retryBatch(tx, consumer, now));
    return dispatched;
  });
  const drain = () => {
    retriesAsked = true;
    return run();
  };

  let inFlight: Promise<unknown> = Promise.resolve();
  const logged = async (drained: Promise<number>) => {
    inFlight = drained.catch(() => undefined);
    try {
      await drained;
    } catch (error) {
      log.error({ err: error }, 'event relay failed; retried at its next wake-up');
    }
  };

  let running: { wake: SpacedWake; stopListening: () => void; timer: NodeJS.Timeout } | undefined;
  return {
    drain,
    poll: () => logged(drain()),
    start() {
      if (running) return;
      const wake = spacedWake(() => void logged(run()), options.spacingMs ?? SPACING_MS);
      const look = () => {
        retriesAsked = true;
        wake.wake();
      };
      const timer = setInterval(look, options.pollMs ?? POLL_MS);
      timer.unref();
      running = { wake, timer, stopListening: options.commits?.on(EVENTS_COMMITTED, wake.wake) ?? (() => false) };
      look();
    },
    async backlog() {
      const [undispatched] = await rowsOf<{ count: number }>(
        db,
        sql`select count(*)::int as count from ${domainEvents} where dispatched_at is null`,
      );
      const retries = await rowsOf<{ consumer: string; count: number }>(
        db,
        sql`select consumer, count(*)::int as count from ${domainEventRetries} group by consumer order by consumer`,
      );
      return { undispatched: undispatched?.count ?? 0, retries };
    },
    async stop() {
      if (running) {
        running.stopListening();
        clearInterval(running.timer);
        running.wake.stop();
        running = undefined;
      }
      await inFlight;
    },
  };
}

interface EventRow {
  id: string;
  payload: unknown;
  occurred_at: Date;
}

/** The rows' events; one this version does not know (written by a newer one) goes to no consumer here. */
function recordedOf(rows: readonly EventRow[]): RecordedEvent[] {
  return rows.flatMap((row) => {
    const parsed = domainEvent.safeParse(row.payload);
    return parsed.success ? [{ id: Number(row.id), event: parsed.data, occurredAt: new Date(row.occurred_at) }] : [];
  });
}

async function scheduleRetries(
  tx: Tx,
  consumer: string,
  batch: readonly RecordedEvent[],
  now: Date,
  error: unknown,
): Promise<void> {
  const dueAt = new Date(now.getTime() + RETRY_FIRST_SECONDS * 1000);
  await tx
    .insert(domainEventRetries)
    .values(batch.map(({ id }) => ({ consumer, eventId: id, attempts: 1, dueAt, lastError: errorText(error) })))
    .onConflictDoNothing();
}

/**
 * What an operator reads of a failure: the innermost cause's message, never a stack, nor the wrapper drizzle
 * puts around a database error (its message carries the query's parameters).
 */
function errorText(error: unknown): string {
  let innermost = error;
  while (innermost instanceof Error && innermost.cause instanceof Error) innermost = innermost.cause;
  return (innermost instanceof Error ? innermost.message : String(innermost)).slice(0, 500);
}
