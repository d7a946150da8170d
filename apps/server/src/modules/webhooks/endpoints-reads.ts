import type { WebhookDeliveryView, WebhookEndpointView } from '@ohgood/contract/webhooks';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import {
  type DeliveryRow,
  type EndpointRow,
  findDelivery,
  listEndpoints,
  recentDeliveries,
} from './endpoints-repository';

const DELIVERY_LOG_SIZE = 100;

export function endpointView(row: EndpointRow, now: Date): WebhookEndpointView {
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

export const endpointMissing = () => notFound('WEBHOOK_ENDPOINT_NOT_FOUND', '웹훅 엔드포인트를 찾을 수 없습니다.');
export const deliveryMissing = () => notFound('WEBHOOK_DELIVERY_NOT_FOUND', '웹훅 전송 기록을 찾을 수 없습니다.');

/** The merchant's delivery as the merchant sees it; another merchant's looks exactly like a missing one. */
export async function loadDelivery(db: Db, merchantId: number, deliveryId: number): Promise<WebhookDeliveryView> {
  const row = await findDelivery(db, merchantId, deliveryId);
  if (!row) throw deliveryMissing();
  return deliveryView(row.delivery, row.type);
}

/** What a merchant reads about its webhooks: its endpoints and the log of their deliveries. */
export function createWebhookReads(db: Db, clock: Clock) {
  return {
    async list(merchantId: number) {
      const rows = await listEndpoints(db, merchantId);
      const now = clock.now();
      return { items: rows.map((row) => endpointView(row, now)) };
    },

    async deliveries(merchantId: number, endpointId?: string) {
      const rows = await recentDeliveries(db, merchantId, endpointId, DELIVERY_LOG_SIZE);
      return { items: rows.map((row) => deliveryView(row.delivery, row.type)) };
    },
  };
}
