import { randomUUID } from 'node:crypto';
import {
  type CreateWebhookBody,
  WEBHOOK_RULES,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  type WebhookEvent,
  type WebhookEventType,
} from '@ohgood/contract/webhooks';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { webhookDeliveries, webhookEndpoints, webhookEvents } from '../../db/schema';
import { withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { badRequest, conflict, notFound } from '../../lib/errors';
import {
  isAllowedAddress,
  type OutboundRules,
  type Resolve,
  refusalOfUrl,
  systemResolve,
} from '../../lib/outbound-address';
import { dueIn, enqueueEvent } from './enqueue';
import { newWebhookSecret } from './signature';

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

const DELIVERY_LOG_SIZE = 100;

function endpointView(row: EndpointRow, now: Date): WebhookEndpointView {
  const overlap = row.previousSecretUntil && row.previousSecretUntil > now ? row.previousSecretUntil : null;
  return {
    endpointId: row.id,
    url: row.url,
    events: row.events,
    createdAt: row.createdAt.toISOString(),
    previousSecretExpiresAt: overlap?.toISOString() ?? null,
  };
}

function deliveryView(row: DeliveryRow, eventType: string): WebhookDeliveryView {
  return {
    deliveryId: row.id,
    endpointId: row.endpointId,
    eventId: row.eventId,
    eventType: eventType as WebhookDeliveryView['eventType'],
    status: row.status,
    attempts: row.attempts,
    responseCode: row.responseCode,
    durationMs: row.durationMs,
    error: row.error,
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: row.status === 'PENDING' ? row.nextAttemptAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  };
}

const endpointMissing = () => notFound('WEBHOOK_ENDPOINT_NOT_FOUND', '웹훅 엔드포인트를 찾을 수 없습니다.');
const deliveryMissing = () => notFound('WEBHOOK_DELIVERY_NOT_FOUND', '웹훅 전송 기록을 찾을 수 없습니다.');

/**
 * A merchant's endpoints and deliveries (docs/rules/webhooks.md#W1, #W5). Every read and change is scoped to
 * the merchant the key authenticated: another merchant's endpoint or delivery is "not found", never
 * "forbidden", so ids cannot be probed.
 */
export function createWebhookService(
  db: Db,
  clock: Clock,
  rules: OutboundRules & { resolve?: Resolve },
  /** Wakes the sender after a test event or a replay is queued. */
  onEnqueued: () => void = () => undefined,
) {
  const resolve = rules.resolve ?? systemResolve;

  /** Refuses a URL the sender would refuse (docs/rules/webhooks.md#W2), with the reason in the message. */
  async function checkUrl(raw: string): Promise<void> {
    const refuse = (reason: string) =>
      badRequest('WEBHOOK_URL_REFUSED', `이 주소로는 웹훅을 보낼 수 없습니다. (${reason})`, 'url');
    const refusal = refusalOfUrl(raw, rules);
    if (refusal) throw refuse(refusal);
    // A name that already resolves to a private address is refused now; one that does not resolve yet is
    // taken (the sender checks again at every send).
    const url = new URL(raw);
    if (url.hostname.startsWith('[') || /^[\d.]+$/.test(url.hostname)) return;
    const addresses = await resolve(url.hostname.toLowerCase()).catch(() => [] as string[]);
    if (!addresses.every((address) => isAllowedAddress(address, rules))) throw refuse('private address');
  }

  async function ownEndpoint(merchantId: number, endpointId: string): Promise<EndpointRow> {
    const [row] = await db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.merchantId, merchantId)));
    if (!row) throw endpointMissing();
    return row;
  }

  async function deliveryWithType(merchantId: number, deliveryId: number): Promise<WebhookDeliveryView> {
    const [row] = await db
      .select({ delivery: webhookDeliveries, type: webhookEvents.type })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.merchantId, merchantId)));
    if (!row) throw deliveryMissing();
    return deliveryView(row.delivery, row.type);
  }

  return {
    async create(merchantId: number, body: CreateWebhookBody) {
      await checkUrl(body.url);
      const now = clock.now();
      const secret = newWebhookSecret();
      const row = await withTx(db, async (tx) => {
        // Not locked: two creates at once may pass the limit by one, which is harmless (it only bounds the
        // deliveries one event fans out to).
        const [existing] = await tx
          .select({ n: count() })
          .from(webhookEndpoints)
          .where(eq(webhookEndpoints.merchantId, merchantId));
        if ((existing?.n ?? 0) >= WEBHOOK_RULES.maxEndpoints)
          throw conflict(
            'WEBHOOK_ENDPOINT_LIMIT',
            `웹훅 엔드포인트는 ${WEBHOOK_RULES.maxEndpoints}개까지 등록할 수 있습니다.`,
          );
        const [inserted] = await tx
          .insert(webhookEndpoints)
          .values({ merchantId, url: body.url, events: uniqueEvents(body.events), secret, createdAt: now })
          .returning();
        return inserted;
      });
      if (!row) throw new Error('webhook endpoint insert returned nothing');
      return { endpoint: endpointView(row, now), secret };
    },

    async list(merchantId: number) {
      const rows = await db
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.merchantId, merchantId))
        .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id);
      const now = clock.now();
      return { items: rows.map((row) => endpointView(row, now)) };
    },

    async update(merchantId: number, endpointId: string, events: WebhookEventType[]) {
      await ownEndpoint(merchantId, endpointId);
      const [row] = await db
        .update(webhookEndpoints)
        .set({ events: uniqueEvents(events) })
        .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.merchantId, merchantId)))
        .returning();
      if (!row) throw endpointMissing();
      return endpointView(row, clock.now());
    },

    async remove(merchantId: number, endpointId: string) {
      const deleted = await db
        .delete(webhookEndpoints)
        .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.merchantId, merchantId)))
        .returning({ id: webhookEndpoints.id });
      if (deleted.length === 0) throw endpointMissing();
      return { deleted: true as const };
    },

    /**
     * A new secret signs from now on; the one it replaces signs too for the overlap (24 h), so a receiver can
     * switch without losing a delivery. A second rotation within the overlap drops the oldest secret.
     */
    async rotateSecret(merchantId: number, endpointId: string) {
      const now = clock.now();
      const secret = newWebhookSecret();
      // One statement: `previous_secret` takes the row's secret as it is when the update runs, so two
      // rotations at once chain rather than both keep the same old secret.
      const [row] = await db
        .update(webhookEndpoints)
        .set({
          secret,
          previousSecret: sql`${webhookEndpoints.secret}`,
          previousSecretUntil: new Date(now.getTime() + WEBHOOK_RULES.rotationOverlapHours * 3_600_000),
        })
        .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.merchantId, merchantId)))
        .returning();
      if (!row) throw endpointMissing();
      return { endpoint: endpointView(row, now), secret };
    },

    /** A `webhook.test` event to one endpoint, delivered like any other. */
    async sendTest(merchantId: number, endpointId: string) {
      await ownEndpoint(merchantId, endpointId);
      const now = clock.now();
      const id = `evt_test_${randomUUID().replaceAll('-', '')}`;
      const body: WebhookEvent = { id, type: 'webhook.test', createdAt: now.toISOString(), data: {} };
      await withTx(db, (tx) =>
        enqueueEvent(tx, {
          id,
          merchantId,
          type: 'webhook.test',
          body: JSON.stringify(body),
          createdAt: now,
          orderKey: null,
          now,
          onlyEndpoint: endpointId,
        }),
      );
      onEnqueued();
      const [row] = await db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.eventId, id));
      if (!row) throw new Error('test delivery vanished');
      return deliveryWithType(merchantId, row.id);
    },

    async deliveries(merchantId: number, endpointId?: string) {
      const rows = await db
        .select({ delivery: webhookDeliveries, type: webhookEvents.type })
        .from(webhookDeliveries)
        .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
        .where(
          and(
            eq(webhookDeliveries.merchantId, merchantId),
            endpointId ? eq(webhookDeliveries.endpointId, endpointId) : undefined,
          ),
        )
        .orderBy(desc(webhookDeliveries.id))
        .limit(DELIVERY_LOG_SIZE);
      return { items: rows.map((row) => deliveryView(row.delivery, row.type)) };
    },

    /**
     * Sends a delivery again now, the same event id and body, with a fresh three days of retries: after a
     * receiver's outage outlasted the retries, or to re-run a receiver's handling. The lease is kept: a
     * delivery being sent right now is never sent a second time alongside.
     */
    async replay(merchantId: number, deliveryId: number) {
      const now = clock.now();
      const [row] = await db
        .update(webhookDeliveries)
        .set({ status: 'PENDING', ...dueIn(now) })
        .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.merchantId, merchantId)))
        .returning({ id: webhookDeliveries.id });
      if (!row) throw deliveryMissing();
      onEnqueued();
      return deliveryWithType(merchantId, deliveryId);
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;

function uniqueEvents(events: readonly WebhookEventType[]): WebhookEventType[] {
  return [...new Set(events)];
}
