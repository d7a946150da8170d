import { webhookEndpoints as api } from '@ohgood/contract/webhooks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireMerchant } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
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
