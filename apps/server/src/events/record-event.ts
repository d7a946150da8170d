import { type DomainEvent, domainEvent } from '@ohgood/contract/domain-events';
import { domainEvents } from '../db/schema';
import { afterCommit, type Tx } from '../db/tx';

/**
 * The domain-event seam (ADR 0111): each fact of money, points or grade records its events here, inside the
 * fact's own transaction, so an event row exists exactly when the fact committed and never for one rolled
 * back. Notifications, receipts, audit and analytics read the `domain_events` outbox; no fact's code changes
 * to add one of them. Each event is checked against the contract's union before it is written: a malformed
 * event fails the fact's transaction rather than reaching a consumer.
 */

const committedListeners = new Set<() => void>();
const announceCommitted = () => {
  for (const listener of committedListeners) listener();
};

/**
 * Calls `listener` each time a transaction of this process that recorded events commits: the relay's wake-up,
 * so a fact's events are handled at once without the fact's transaction notifying anything (a notifying commit
 * takes a cluster-wide lock through its disk flush; see ADR 0139). Events committed by another process are
 * found by the relay's polling. Returns the function that stops listening.
 */
export function onEventsCommitted(listener: () => void): () => void {
  committedListeners.add(listener);
  return () => committedListeners.delete(listener);
}

/** A consumer of the outbox besides notices, run in the dispatcher's transaction for each claimed batch. */
export type EventConsumer = (tx: Tx, events: readonly DomainEvent[]) => Promise<void>;

/** An event and when its fact happened. */
export interface TimedEvent {
  event: DomainEvent;
  at: Date;
}

/**
 * The insert of `events` as one statement, for a write that folds it into its own (the payment's); undefined
 * when there is nothing to insert.
 */
export function eventsInsertQuery(tx: Tx, events: readonly TimedEvent[]) {
  if (events.length === 0) return undefined;
  const rows = events.map(({ event, at }) => {
    const checked = domainEvent.parse(event);
    return { type: checked.type, customerId: checked.customerId, payload: checked, occurredAt: at };
  });
  afterCommit(tx, announceCommitted);
  return tx.insert(domainEvents).values(rows);
}

/** Events of one fact that happened at `at`, in the fact's transaction. */
export async function recordEvents(tx: Tx, events: readonly DomainEvent[], at: Date): Promise<void> {
  await eventsInsertQuery(
    tx,
    events.map((event) => ({ event, at })),
  );
}

/** One event of a fact, in the fact's transaction (see `recordEvents`). */
export function recordEvent(tx: Tx, event: DomainEvent, at: Date): Promise<void> {
  return recordEvents(tx, [event], at);
}
