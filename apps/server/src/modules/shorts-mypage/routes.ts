import { discoveryEndpoints as api } from '@ohgood/contract/shorts-discovery';
import type { FastifyPluginAsync } from 'fastify';
import { requireCustomer } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
import { ok } from '../../lib/envelope';
import type { ShortsMypageService } from './service';

/** The shorts my page (docs/rules/api.md#A1): overview and three keyset-paged lists of the caller's own activity. */
export function shortsMypageRoutes(service: ShortsMypageService): FastifyPluginAsync {
  return async (app) => {
    registerEndpoint(app, api.overview, async (request) =>
      ok(await service.overview(requireCustomer(request), request.query.limit)),
    );
    registerEndpoint(app, api.subscriptions, async (request) =>
      ok(await service.subscriptions(requireCustomer(request), request.query)),
    );
    registerEndpoint(app, api.liked, async (request) =>
      ok(await service.liked(requireCustomer(request), request.query)),
    );
    registerEndpoint(app, api.commented, async (request) =>
      ok(await service.commented(requireCustomer(request), request.query)),
    );
  };
}
