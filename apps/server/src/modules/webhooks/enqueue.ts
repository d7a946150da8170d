import { createHash } from 'node:crypto';
import { WEBHOOK_RULES, type WebhookEvent, type WebhookEventType } from '@ohgood/contract/webhooks';
import { and, arrayContains, eq, inArray } from 'drizzle-orm';
import { paymentRequests, settlements, webhookDeliveries, webhookEndpoints, webhookEvents } from '../../db/schema';
import type { Tx } from '../../db/tx';
import { type EventConsumer, eventTypes, type RecordedEvent } from '../../events/relay';
import { settlementSummaryOf } from '../settlements/reads';

/** A fact a merchant hears of: which webhook event it is, what it is about, and when it happened. */
type WebhookFact = { type: WebhookEventType; merchantId: number; at: Date } & (
  | { requestId: string }
  | { settlementId: number }
);

/**
 * The domain events that are webhook events; a new one is one more case here. A payment's events are about
 * its request, `settlement.paid` about the settlement.
 */
function factOf({ event, occurredAt: at }: RecordedEvent): WebhookFact | undefined {
  switch (event.type) {
    case 'payment.completed':
      return { type: 'payment.paid', merchantId: event.merchantId, requestId: event.requestId, at };
    case 'payment.refunded':
    case 'payment.cancelled':
    case 'payment.expired':
      return { type: event.type, merchantId: event.merchantId, requestId: event.requestId, at };
    case 'settlement.paid':
      return { type: 'settlement.paid', merchantId: event.merchantId, settlementId: event.settlementId, at };
    default:
      return undefined;
  }
}

/** The status the resource shows at each payment event, whatever happened to the request since. */
const STATUS_AT = {
  'payment.paid': 'PAID',
  'payment.refunded': 'REFUNDED',
  'payment.cancelled': 'CANCELLED',
  'payment.expired': 'EXPIRED',
} as const;

/**
 * The event's id, derived from the fact (a request is paid, refunded, cancelled or expired once; a settlement
 * paid once): the same on every run of the outbox's batch, so a repeated batch finds its event and deliveries
 * already there.
 */
export function webhookEventIdOf(type: string, resourceId: string): string {
  return `evt_${createHash('sha256').update(`${type}:${resourceId}`).digest('hex').slice(0, 32)}`;
}

export const dueIn = (now: Date) => ({
  nextAttemptAt: now,
  giveUpAt: new Date(now.getTime() + WEBHOOK_RULES.retryDays * 24 * 3_600_000),
});

type RequestRow = typeof paymentRequests.$inferSelect;

/** The merchant API's payment request without its PIN and QR, with the status the event gave it. */
function paymentResource(row: RequestRow, type: WebhookEventType) {
  return {
    requestId: row.id,
    orderId: row.orderId,
    requestName: row.requestName,
    totalPrice: row.totalPrice,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    status: STATUS_AT[type as keyof typeof STATUS_AT],
  };
}

/** The requests and settlements the facts are about, each of the fact's own merchant (or absent). */
async function resourcesOf(tx: Tx, facts: readonly WebhookFact[]) {
  const requestIds = [...new Set(facts.flatMap((fact) => ('requestId' in fact ? [fact.requestId] : [])))];
  const settlementIds = [...new Set(facts.flatMap((fact) => ('settlementId' in fact ? [fact.settlementId] : [])))];
  const requests =
    requestIds.length > 0 ? await tx.select().from(paymentRequests).where(inArray(paymentRequests.id, requestIds)) : [];
  const paid =
    settlementIds.length > 0 ? await tx.select().from(settlements).where(inArray(settlements.id, settlementIds)) : [];
  const requestById = new Map(requests.map((row) => [row.id, row]));
  const settlementById = new Map(paid.map((row) => [row.id, row]));
  return (fact: WebhookFact): { resourceId: string; data: WebhookEvent['data']; orderKey: string } | undefined => {
    if ('requestId' in fact) {
      const row = requestById.get(fact.requestId);
      if (row?.merchantId !== fact.merchantId) return undefined;
      return { resourceId: row.id, data: { payment: paymentResource(row, fact.type) }, orderKey: row.id };
    }
    const row = settlementById.get(fact.settlementId);
    if (row?.merchantId !== fact.merchantId) return undefined;
    return {
      resourceId: `settlement:${row.id}`,
      data: { settlement: settlementSummaryOf(row) },
      orderKey: `settlement:${row.id}`,
    };
  };
}

/**
 * The outbox's webhook consumer (docs/rules/webhooks.md#W3): in the relay's transaction, each fact of a
 * merchant with an endpoint taking it becomes one stored event and one delivery per such endpoint. It only
 * enqueues; the sender POSTs after the commit (`onEnqueued` wakes it). Nothing is stored for a merchant
 * without endpoints.
 */
export function createWebhookConsumer(onEnqueued: () => void): EventConsumer {
  return {
    name: 'webhooks',
    wants: eventTypes(
      'payment.completed',
      'payment.refunded',
      'payment.cancelled',
      'payment.expired',
      'settlement.paid',
    ),
    async handle(batch, { tx, now, afterCommit }): Promise<void> {
      const facts = batch.flatMap((recorded) => factOf(recorded) ?? []);
      if (facts.length === 0) return;
      const endpoints = await tx
        .select({ merchantId: webhookEndpoints.merchantId, events: webhookEndpoints.events })
        .from(webhookEndpoints)
        .where(inArray(webhookEndpoints.merchantId, [...new Set(facts.map((fact) => fact.merchantId))]));
      const wanted = facts.filter((fact) =>
        endpoints.some((e) => e.merchantId === fact.merchantId && e.events.includes(fact.type)),
      );
      if (wanted.length === 0) return;
      const resourceOf = await resourcesOf(tx, wanted);
      let enqueued = 0;
      for (const fact of wanted) {
        const resource = resourceOf(fact);
        if (!resource) continue;
        const id = webhookEventIdOf(fact.type, resource.resourceId);
        const body: WebhookEvent = { id, type: fact.type, createdAt: fact.at.toISOString(), data: resource.data };
        enqueued += await enqueueEvent(tx, {
          id,
          merchantId: fact.merchantId,
          type: fact.type,
          body: JSON.stringify(body),
          createdAt: fact.at,
          orderKey: resource.orderKey,
          now,
        });
      }
      if (enqueued > 0) afterCommit(onEnqueued);
    },
  };
}

/**
 * Stores one event (once) and a delivery of it to each of the merchant's endpoints taking its type, or to
 * `onlyEndpoint` (a test event); returns how many deliveries it added. An event no endpoint takes is not stored.
 */
export async function enqueueEvent(
  tx: Tx,
  event: {
    id: string;
    merchantId: number;
    type: string;
    body: string;
    createdAt: Date;
    orderKey: string | null;
    now: Date;
    onlyEndpoint?: string;
  },
): Promise<number> {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.merchantId, event.merchantId),
        event.onlyEndpoint
          ? eq(webhookEndpoints.id, event.onlyEndpoint)
          : arrayContains(webhookEndpoints.events, [event.type as WebhookEventType]),
      ),
    );
  if (endpoints.length === 0) return 0;
  await tx
    .insert(webhookEvents)
    .values({
      id: event.id,
      merchantId: event.merchantId,
      type: event.type,
      body: event.body,
      createdAt: event.createdAt,
    })
    .onConflictDoNothing();
  const added = await tx
    .insert(webhookDeliveries)
    .values(
      endpoints.map((endpoint) => ({
        endpointId: endpoint.id,
        eventId: event.id,
        merchantId: event.merchantId,
        orderKey: event.orderKey,
        createdAt: event.now,
        ...dueIn(event.now),
      })),
    )
    .onConflictDoNothing()
    .returning({ id: webhookDeliveries.id });
  return added.length;
}
