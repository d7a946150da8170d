import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { webhookDeliveries, webhookEndpoints, webhookEvents } from '../../db/schema';
import type { Executor, Tx } from '../../db/tx';
import { dueIn } from './enqueue';

/**
 * The SQL of a merchant's webhook endpoints and deliveries; the reads and actions beside it decide and shape.
 * Every statement is scoped to the merchant: another merchant's row is never found.
 */

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type EndpointValues = typeof webhookEndpoints.$inferInsert;

const ownEndpoint = (merchantId: number, endpointId: string) =>
  and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.merchantId, merchantId));

export async function findEndpoint(db: Executor, merchantId: number, endpointId: string) {
  const [row] = await db.select().from(webhookEndpoints).where(ownEndpoint(merchantId, endpointId));
  return row;
}

export const listEndpoints = (db: Executor, merchantId: number) =>
  db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.merchantId, merchantId))
    .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id);

export async function countEndpoints(tx: Tx, merchantId: number): Promise<number> {
  const [existing] = await tx
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.merchantId, merchantId));
  return existing?.n ?? 0;
}

export async function insertEndpoint(tx: Tx, values: EndpointValues) {
  const [inserted] = await tx.insert(webhookEndpoints).values(values).returning();
  if (!inserted) throw new Error('webhook endpoint insert returned nothing');
  return inserted;
}

export async function updateEndpoint(
  db: Executor,
  merchantId: number,
  endpointId: string,
  set: PgUpdateSetSource<typeof webhookEndpoints>,
) {
  const [row] = await db.update(webhookEndpoints).set(set).where(ownEndpoint(merchantId, endpointId)).returning();
  return row;
}

/** Answers whether the endpoint was the merchant's (and is now gone). */
export async function deleteEndpoint(db: Executor, merchantId: number, endpointId: string): Promise<boolean> {
  const deleted = await db
    .delete(webhookEndpoints)
    .where(ownEndpoint(merchantId, endpointId))
    .returning({ id: webhookEndpoints.id });
  return deleted.length > 0;
}

/**
 * A new signing secret; the one it replaces keeps signing until `previousUntil`. One statement:
 * `previous_secret` takes the row's secret as it is when the update runs, so two rotations at once chain
 * rather than both keep the same old secret.
 */
export const rotateEndpointSecret = (
  db: Executor,
  merchantId: number,
  endpointId: string,
  secret: string,
  previousUntil: Date,
) =>
  updateEndpoint(db, merchantId, endpointId, {
    secret,
    previousSecret: sql`${webhookEndpoints.secret}`,
    previousSecretUntil: previousUntil,
  });

const withEventType = (db: Executor) =>
  db
    .select({ delivery: webhookDeliveries, type: webhookEvents.type })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId));

/** The merchant's delivery with its event's type. */
export async function findDelivery(db: Executor, merchantId: number, deliveryId: number) {
  const [row] = await withEventType(db).where(
    and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.merchantId, merchantId)),
  );
  return row;
}

/** The merchant's newest deliveries (of one endpoint if given) with their events' types. */
export const recentDeliveries = (db: Executor, merchantId: number, endpointId: string | undefined, limit: number) =>
  withEventType(db)
    .where(
      and(
        eq(webhookDeliveries.merchantId, merchantId),
        endpointId ? eq(webhookDeliveries.endpointId, endpointId) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.id))
    .limit(limit);

/** The delivery of an event that fanned out to one endpoint (a test event). */
export async function deliveryOfEvent(db: Executor, eventId: string) {
  const [row] = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.eventId, eventId));
  return row;
}

/** Makes the merchant's delivery due now with a fresh retry window; answers whether it was the merchant's. */
export async function redueDelivery(db: Db, merchantId: number, deliveryId: number, now: Date): Promise<boolean> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: 'PENDING', ...dueIn(now) })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.merchantId, merchantId)))
    .returning({ id: webhookDeliveries.id });
  return row !== undefined;
}
