import { randomUUID } from 'node:crypto';
import {
  type CreateWebhookBody,
  WEBHOOK_RULES,
  type WebhookEvent,
  type WebhookEventType,
} from '@ohgood/contract/webhooks';
import type { Db } from '../../db/client';
import { withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { badRequest, conflict } from '../../lib/errors';
import {
  isAllowedAddress,
  type OutboundRules,
  type Resolve,
  refusalOfUrl,
  systemResolve,
} from '../../lib/outbound-address';
import { deliveryMissing, endpointMissing, endpointView, loadDelivery } from './endpoints-reads';
import {
  countEndpoints,
  deleteEndpoint,
  deliveryOfEvent,
  findEndpoint,
  insertEndpoint,
  redueDelivery,
  rotateEndpointSecret,
  updateEndpoint,
} from './endpoints-repository';
import { enqueueEvent } from './enqueue';
import { newWebhookSecret } from './signature';

function uniqueEvents(events: readonly WebhookEventType[]): WebhookEventType[] {
  return [...new Set(events)];
}

/** What a merchant does with its webhooks: add, change, remove and rotate endpoints; send a test; replay. */
export function createWebhookActions(
  db: Db,
  clock: Clock,
  rules: OutboundRules & { resolve?: Resolve },
  onEnqueued: () => void,
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

  async function ownEndpoint(merchantId: number, endpointId: string) {
    const row = await findEndpoint(db, merchantId, endpointId);
    if (!row) throw endpointMissing();
    return row;
  }

  return {
    async create(merchantId: number, body: CreateWebhookBody) {
      await checkUrl(body.url);
      const now = clock.now();
      const secret = newWebhookSecret();
      const row = await withTx(db, async (tx) => {
        // Not locked: two creates at once may pass the limit by one, which is harmless (it only bounds the
        // deliveries one event fans out to).
        if ((await countEndpoints(tx, merchantId)) >= WEBHOOK_RULES.maxEndpoints)
          throw conflict(
            'WEBHOOK_ENDPOINT_LIMIT',
            `웹훅 엔드포인트는 ${WEBHOOK_RULES.maxEndpoints}개까지 등록할 수 있습니다.`,
          );
        return insertEndpoint(tx, {
          merchantId,
          url: body.url,
          events: uniqueEvents(body.events),
          secret,
          createdAt: now,
        });
      });
      return { endpoint: endpointView(row, now), secret };
    },

    async update(merchantId: number, endpointId: string, events: WebhookEventType[]) {
      await ownEndpoint(merchantId, endpointId);
      const row = await updateEndpoint(db, merchantId, endpointId, { events: uniqueEvents(events) });
      if (!row) throw endpointMissing();
      return endpointView(row, clock.now());
    },

    async remove(merchantId: number, endpointId: string) {
      if (!(await deleteEndpoint(db, merchantId, endpointId))) throw endpointMissing();
      return { deleted: true as const };
    },

    /**
     * A new secret signs from now on; the one it replaces signs too for the overlap (24 h), so a receiver can
     * switch without losing a delivery. A second rotation within the overlap drops the oldest secret.
     */
    async rotateSecret(merchantId: number, endpointId: string) {
      const now = clock.now();
      const secret = newWebhookSecret();
      const until = new Date(now.getTime() + WEBHOOK_RULES.rotationOverlapHours * 3_600_000);
      const row = await rotateEndpointSecret(db, merchantId, endpointId, secret, until);
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
      const row = await deliveryOfEvent(db, id);
      if (!row) throw new Error('test delivery vanished');
      return loadDelivery(db, merchantId, row.id);
    },

    /**
     * Sends a delivery again now, the same event id and body, with a fresh three days of retries: after a
     * receiver's outage outlasted the retries, or to re-run a receiver's handling. The lease is kept: a
     * delivery being sent right now is never sent a second time alongside.
     */
    async replay(merchantId: number, deliveryId: number) {
      if (!(await redueDelivery(db, merchantId, deliveryId, clock.now()))) throw deliveryMissing();
      onEnqueued();
      return loadDelivery(db, merchantId, deliveryId);
    },
  };
}
