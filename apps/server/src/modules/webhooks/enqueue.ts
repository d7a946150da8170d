import { createHash } from 'node:crypto';
import type { DomainEvent } from '@ohgood/contract/domain-events';
import { WEBHOOK_RULES, type WebhookEvent, type WebhookEventType } from '@ohgood/contract/webhooks';
import { and, arrayContains, eq, inArray } from 'drizzle-orm';
import { paymentRequests, webhookDeliveries, webhookEndpoints, webhookEvents } from '../../db/schema';
import type { Tx } from '../../db/tx';
import { type EventConsumer, eventTypes } from '../../events/relay';

/** A payment fact a merchant hears of: which webhook event it is, and the status its resource shows. */
interface PaymentFact {
  type: WebhookEventType;
  merchantId: number;
  requestId: string;
}

/**
 * The domain events that are webhook events. A new one (the settlement's `settlement.paid`, a request
 * cancelled or expired once those are recorded as facts) is one more case here.
 */
function paymentFactOf(event: DomainEvent): PaymentFact | undefined {
  switch (event.type) {
    case 'payment.completed':
      return { type: 'payment.paid', merchantId: event.merchantId, requestId: event.requestId };
    case 'payment.refunded':
      return { type: 'payment.refunded', merchantId: event.merchantId, requestId: event.requestId };
    default:
      return undefined;
  }
}

/** The status the resource shows at each event, whatever happened to the request since. */
const STATUS_AT = {
  'payment.paid': 'PAID',
  'payment.refunded': 'REFUNDED',
  'payment.cancelled': 'CANCELLED',
  'payment.expired': 'EXPIRED',
} as const;

/**
 * The event's id, derived from the fact (a request is paid once and refunded once): the same on every run of
 * the outbox's batch, so a repeated batch finds its event and deliveries already there.
 */
export function webhookEventIdOf(type: string, resourceId: string): string {
  return `evt_${createHash('sha256').update(`${type}:${resourceId}`).digest('hex').slice(0, 32)}`;
}

export const dueIn = (now: Date) => ({
  nextAttemptAt: now,
  giveUpAt: new Date(now.getTime() + WEBHOOK_RULES.retryDays * 24 * 3_600_000),
});

/**
 * The outbox's webhook consumer (docs/rules/webhooks.md#W3): in the relay's transaction, each payment event
 * of a merchant with an endpoint taking it becomes one stored event and one delivery per such endpoint. It
 * only enqueues; the sender POSTs after the commit (`onEnqueued` wakes it). Nothing is stored for a merchant
 * without endpoints.
 */
export function createWebhookConsumer(onEnqueued: () => void): EventConsumer {
  return {
    name: 'webhooks',
    wants: eventTypes('payment.completed', 'payment.refunded'),
    async handle(batch, { tx, now, afterCommit }): Promise<void> {
      const facts = batch.flatMap(({ event }) => paymentFactOf(event) ?? []);
      if (facts.length === 0) return;
      const endpoints = await tx
        .select({ id: webhookEndpoints.id, merchantId: webhookEndpoints.merchantId, events: webhookEndpoints.events })
        .from(webhookEndpoints)
        .where(inArray(webhookEndpoints.merchantId, [...new Set(facts.map((fact) => fact.merchantId))]));
      const wanted = facts.filter((fact) =>
        endpoints.some((e) => e.merchantId === fact.merchantId && e.events.includes(fact.type)),
      );
      if (wanted.length === 0) return;
      const requests = await tx
        .select()
        .from(paymentRequests)
        .where(inArray(paymentRequests.id, [...new Set(wanted.map((fact) => fact.requestId))]));
      const byId = new Map(requests.map((row) => [row.id, row]));
      let enqueued = 0;
      for (const fact of wanted) {
        const row = byId.get(fact.requestId);
        if (!row || row.merchantId !== fact.merchantId) continue;
        const at = (fact.type === 'payment.paid' ? row.paidAt : row.closedAt) ?? now;
        const id = webhookEventIdOf(fact.type, fact.requestId);
        const body: WebhookEvent = {
          id,
          type: fact.type,
          createdAt: at.toISOString(),
          data: {
            payment: {
              requestId: row.id,
              orderId: row.orderId,
              requestName: row.requestName,
              totalPrice: row.totalPrice,
              createdAt: row.createdAt.toISOString(),
              expiresAt: row.expiresAt.toISOString(),
              paidAt: row.paidAt?.toISOString() ?? null,
              status: STATUS_AT[fact.type as keyof typeof STATUS_AT],
            },
          },
        };
        enqueued += await enqueueEvent(tx, {
          id,
          merchantId: fact.merchantId,
          type: fact.type,
          body: JSON.stringify(body),
          createdAt: at,
          orderKey: fact.requestId,
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
