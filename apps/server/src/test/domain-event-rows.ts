import { type DomainEvent, domainEvent } from '@ohgood/contract/domain-events';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { domainEvents } from '../db/schema';

/** A customer's recorded domain events, oldest first, each parsed by the contract's union. */
export async function eventsOf(db: Db, customerId: number): Promise<DomainEvent[]> {
  const rows = await db
    .select({ type: domainEvents.type, payload: domainEvents.payload })
    .from(domainEvents)
    .where(eq(domainEvents.customerId, customerId))
    .orderBy(asc(domainEvents.id));
  return rows.map((row) => {
    const event = domainEvent.parse(row.payload);
    if (event.type !== row.type) throw new Error(`event row typed ${row.type} holds a ${event.type}`);
    return event;
  });
}
