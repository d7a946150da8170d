import { type DomainEvent, domainEvent } from '@ohgood/contract/domain-events';
import { domainEvents } from '../db/schema';
import type { Tx } from '../db/tx';

/**
 * The domain-event seam (ADR 0111): each fact of money, points or grade records its events here, inside the
 * fact's own transaction, so an event row exists exactly when the fact committed and never for one rolled
 * back. Notifications, receipts, audit and analytics read the `domain_events` outbox; no fact's code changes
 * to add one of them. Each event is checked against the contract's union before it is written: a malformed
 * event fails the fact's transaction rather than reaching a consumer.
 */
export async function recordEvents(tx: Tx, events: readonly DomainEvent[], at: Date): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((event) => {
    const checked = domainEvent.parse(event);
    return { type: checked.type, customerId: checked.customerId, payload: checked, occurredAt: at };
  });
  await tx.insert(domainEvents).values(rows);
}

/** One event of a fact, in the fact's transaction (see `recordEvents`). */
export function recordEvent(tx: Tx, event: DomainEvent, at: Date): Promise<void> {
  return recordEvents(tx, [event], at);
}
