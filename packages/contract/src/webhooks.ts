import { z } from 'zod';
import { defineEndpoint, type StaffAccess } from './endpoint';
import { merchantKeyHeaders, paymentRequestView } from './payments';
import { merchantIdParams, settlementSummary } from './settlements';

/*
 * Signed merchant webhooks (docs/rules/webhooks.md): a shop's server registers HTTPS endpoints and hears of
 * its payments without holding a stream open. Each delivery is a POST of one `webhookEvent` with the header
 * `OhGood-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (two `v1=` during a rotation).
 */

/** What an endpoint can subscribe to. `webhook.test` is only ever sent on request, to one endpoint. */
export const WEBHOOK_EVENT_TYPES = [
  'payment.paid',
  'payment.refunded',
  'payment.cancelled',
  'payment.expired',
  'settlement.paid',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_RULES = {
  /** The header carrying the signature. */
  signatureHeader: 'OhGood-Signature',
  /** After a rotation the old secret signs too, this long. */
  rotationOverlapHours: 24,
  /** A delivery is retried with back-off this long after its event, then given up. */
  retryDays: 3,
  /** One attempt's time limit. */
  timeoutSeconds: 10,
  /** Endpoints per merchant. */
  maxEndpoints: 10,
  /** How far a receiver should accept `t` from its own clock (the README's recipe). */
  toleranceSeconds: 300,
  /** A delivered delivery stays in the log this long after its last attempt, then the daily prune drops it. */
  deliveredRetentionDays: 30,
  /** A given-up delivery stays longer: a receiver's outage is looked into, and replayed, from it. */
  failedRetentionDays: 90,
} as const;

export const WEBHOOK_DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;

/** The payment a payment event is about: the merchant API's request, as it stood at the event. */
export const webhookPayment = paymentRequestView.pick({
  requestId: true,
  orderId: true,
  requestName: true,
  totalPrice: true,
  createdAt: true,
  expiresAt: true,
  paidAt: true,
  status: true,
});
export type WebhookPayment = z.infer<typeof webhookPayment>;

/** The body of every delivery; `id` is unique per event and the same on each retry and replay. */
export const webhookEvent = z.object({
  id: z.string(),
  type: z.enum([...WEBHOOK_EVENT_TYPES, 'webhook.test']),
  /** When the fact happened (ISO instant). */
  createdAt: z.string(),
  /** A payment event carries `payment`; `settlement.paid` carries `settlement`, as the merchant API shows it. */
  data: z.object({ payment: webhookPayment.optional(), settlement: settlementSummary.optional() }).loose(),
});
export type WebhookEvent = z.infer<typeof webhookEvent>;

const endpointUrl = z.string().trim().min(1).max(2048);
const eventList = z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1).max(WEBHOOK_EVENT_TYPES.length);

export const createWebhookBody = z.object({ url: endpointUrl, events: eventList }).strict();
export type CreateWebhookBody = z.infer<typeof createWebhookBody>;
export const updateWebhookBody = z.object({ events: eventList }).strict();

export const webhookEndpointView = z.object({
  endpointId: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  createdAt: z.string(),
  /** Until when the secret before the last rotation still signs; null when none does. */
  previousSecretExpiresAt: z.string().nullable(),
});
export type WebhookEndpointView = z.infer<typeof webhookEndpointView>;

/** The signing secret is answered here only: on registration and on rotation. */
export const webhookSecretView = z.object({ endpoint: webhookEndpointView, secret: z.string() });

export const webhookDeliveryView = z.object({
  deliveryId: z.number().int(),
  endpointId: z.string(),
  eventId: z.string(),
  eventType: webhookEvent.shape.type,
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  /** The last attempt's HTTP status; null before any answer (not tried yet, refused or timed out). */
  responseCode: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  /** Why the last attempt failed without an HTTP status (timeout, refused address); null otherwise. */
  error: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDeliveryView = z.infer<typeof webhookDeliveryView>;

const endpointParams = z.object({ endpointId: z.string().uuid() });
const deliveryParams = z.object({
  deliveryId: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 53 - 1),
});

export const webhookEndpoints = {
  create: defineEndpoint({
    method: 'POST',
    path: '/api/merchant/webhooks',
    headers: merchantKeyHeaders,
    body: createWebhookBody,
    response: webhookSecretView,
    status: 201,
    access: 'merchant',
    summary: '웹훅 엔드포인트 등록 (서명 비밀키는 이 응답에서만)',
    tags: ['merchant'],
  }),
  list: defineEndpoint({
    method: 'GET',
    path: '/api/merchant/webhooks',
    headers: merchantKeyHeaders,
    response: z.object({ items: z.array(webhookEndpointView) }),
    access: 'merchant',
    summary: '웹훅 엔드포인트 목록',
    tags: ['merchant'],
  }),
  update: defineEndpoint({
    method: 'PATCH',
    path: '/api/merchant/webhooks/:endpointId',
    params: endpointParams,
    headers: merchantKeyHeaders,
    body: updateWebhookBody,
    response: webhookEndpointView,
    access: 'merchant',
    summary: '웹훅 이벤트 변경',
    tags: ['merchant'],
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: '/api/merchant/webhooks/:endpointId',
    params: endpointParams,
    headers: merchantKeyHeaders,
    response: z.object({ deleted: z.literal(true) }),
    access: 'merchant',
    summary: '웹훅 엔드포인트 삭제 (전송 기록 포함)',
    tags: ['merchant'],
  }),
  rotateSecret: defineEndpoint({
    method: 'POST',
    path: '/api/merchant/webhooks/:endpointId/rotate-secret',
    params: endpointParams,
    headers: merchantKeyHeaders,
    response: webhookSecretView,
    access: 'merchant',
    summary: '서명 비밀키 교체 (이전 키도 24시간 함께 서명)',
    tags: ['merchant'],
  }),
  test: defineEndpoint({
    method: 'POST',
    path: '/api/merchant/webhooks/:endpointId/test',
    params: endpointParams,
    headers: merchantKeyHeaders,
    response: webhookDeliveryView,
    status: 202,
    access: 'merchant',
    summary: '테스트 이벤트 전송',
    tags: ['merchant'],
  }),
  deliveries: defineEndpoint({
    method: 'GET',
    path: '/api/merchant/webhooks/deliveries',
    query: z.object({ endpointId: z.string().uuid().optional() }),
    headers: merchantKeyHeaders,
    response: z.object({ items: z.array(webhookDeliveryView) }),
    access: 'merchant',
    summary: '웹훅 전송 기록 (최근 100건)',
    tags: ['merchant'],
  }),
  replay: defineEndpoint({
    method: 'POST',
    path: '/api/merchant/webhooks/deliveries/:deliveryId/replay',
    params: deliveryParams,
    headers: merchantKeyHeaders,
    response: webhookDeliveryView,
    status: 202,
    access: 'merchant',
    summary: '웹훅 재전송',
    tags: ['merchant'],
  }),
} as const;

/* ---- the console ---- */

/** How one endpoint is doing, as the console shows it (docs/rules/webhooks.md#W10). */
export const webhookEndpointHealth = z.object({
  endpointId: z.string(),
  /** The scheme and host only: a path or query may carry the merchant's own token. */
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  createdAt: z.string(),
  /** The delivery tried most recently; null before any attempt. */
  lastDelivery: z
    .object({
      eventType: webhookEvent.shape.type,
      status: z.enum(WEBHOOK_DELIVERY_STATUSES),
      responseCode: z.number().int().nullable(),
      at: z.string(),
    })
    .nullable(),
  /** Deliveries still to be sent (waiting, being sent or retrying). */
  pending: z.number().int(),
  /** Of those, the ones whose last attempt failed: retried with back-off. */
  failing: z.number().int(),
  /** How long the oldest pending delivery has waited since it was queued, in seconds; null when none waits. */
  oldestPendingSeconds: z.number().int().nullable(),
  /** Deliveries tried in the last 24 hours, those that succeeded, and those given up. */
  tried24h: z.number().int(),
  succeeded24h: z.number().int(),
  failed24h: z.number().int(),
});
export type WebhookEndpointHealth = z.infer<typeof webhookEndpointHealth>;

export const merchantWebhookHealth = z.object({
  merchantId: z.number().int(),
  /** The instant the figures were read at. */
  asOf: z.string(),
  endpoints: z.array(webhookEndpointHealth),
});
export type MerchantWebhookHealth = z.infer<typeof merchantWebhookHealth>;

/** The money's watchers read it: RISK and ADMIN, like a merchant's settlement. */
const READ_BOOKS: StaffAccess = { staff: ['RISK', 'ADMIN'] };

export const opsWebhookEndpoints = {
  merchantWebhookHealth: defineEndpoint({
    method: 'GET',
    path: '/api/ops/merchants/:id/webhooks',
    params: merchantIdParams,
    response: merchantWebhookHealth,
    access: READ_BOOKS,
    summary: '가맹점 웹훅 상태 (엔드포인트별 최근 전송, 대기 · 실패, 24시간 성공률)',
    tags: ['ops'],
  }),
} as const;
