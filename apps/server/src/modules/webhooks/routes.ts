import { webhookEndpoints as api, opsWebhookEndpoints as opsApi } from '@ohgood/contract/webhooks';
import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { requireMerchant } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
import type { Clock } from '../../lib/clock';
import { merchantWebhookHealth } from './health';
import type { WebhookService } from './service';

/** The merchant API's webhooks (`X-Merchant-Key`): endpoints, secrets, the delivery log and replay. */
export function webhookRoutes(webhooks: WebhookService): FastifyPluginAsyncZod {
  return async (app) => {
    registerEndpoint(app, api.create, async (request) => webhooks.create(requireMerchant(request), request.body));
    registerEndpoint(app, api.list, async (request) => webhooks.list(requireMerchant(request)));
    registerEndpoint(app, api.update, async (request) =>
      webhooks.update(requireMerchant(request), request.params.endpointId, request.body.events),
    );
    registerEndpoint(app, api.remove, async (request) =>
      webhooks.remove(requireMerchant(request), request.params.endpointId),
    );
    registerEndpoint(app, api.rotateSecret, async (request) =>
      webhooks.rotateSecret(requireMerchant(request), request.params.endpointId),
    );
    registerEndpoint(app, api.test, async (request) =>
      webhooks.sendTest(requireMerchant(request), request.params.endpointId),
    );
    registerEndpoint(app, api.deliveries, async (request) =>
      webhooks.deliveries(requireMerchant(request), request.query.endpointId),
    );
    registerEndpoint(app, api.replay, async (request) =>
      webhooks.replay(requireMerchant(request), request.params.deliveryId),
    );
  };
}

/** The console's read of a merchant's webhooks; the guard has checked the endpoint's declared roles already. */
export function opsWebhookRoutes(db: Db, clock: Clock): FastifyPluginAsync {
  return async (app) => {
    registerEndpoint(app, opsApi.merchantWebhookHealth, async (request) =>
      merchantWebhookHealth(db, request.params.id, clock.now()),
    );
  };
}
