import { type DomainEvent, domainEvent, isCustomerEvent } from '@ohgood/contract/domain-events';
import { domainEvents } from '../db/schema';
import { noteForCommit, type Tx } from '../db/tx';

/**
 * The domain-event seam (ADR 0111): each fact of money, points or grade records its events here, inside the
 * fact's own transaction, so an event row exists exactly when the fact committed and never for one rolled
 * back. The relay (`relay.ts`) hands them to each consumer (notices, the merchant status announcer, …); no
 * fact's code changes to add one. Each event is checked against the contract's union before it is written: a malformed
 * event fails the fact's transaction rather than reaching a consumer.
 */

/**
 * The commit topic of a transaction that recorded events: the relay listens for it (`CommitListeners` of the
 * app, db/tx.ts) and wakes at once, so a fact's events are handled without the fact's transaction notifying
 * anything (a notifying commit takes a cluster-wide lock through its disk flush; see ADR 0139). Events
 * committed by another process are found by the relay's polling.
 */
export const EVENTS_COMMITTED = 'domain-events-committed';

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
    return {
      type: checked.type,
      customerId: isCustomerEvent(checked) ? checked.customerId : null,
      payload: checked,
      occurredAt: at,
    };
  });
  noteForCommit(tx, EVENTS_COMMITTED);
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
