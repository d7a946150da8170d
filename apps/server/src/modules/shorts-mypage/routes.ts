import { discoveryEndpoints as api } from '@ohgood/contract/shorts-discovery';
import type { FastifyPluginAsync } from 'fastify';
import { requireCustomer } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
import type { ShortsMypageService } from './service';

/** The shorts my page (docs/rules/api.md#A1): overview and three keyset-paged lists, all bare of the caller's own activity. */
export function shortsMypageRoutes(service: ShortsMypageService): FastifyPluginAsync {
  return async (app) => {
    registerEndpoint(app, api.overview, (request) => service.overview(requireCustomer(request), request.query.limit));
    registerEndpoint(app, api.subscriptions, (request) =>
      service.subscriptions(requireCustomer(request), request.query),
    );
    registerEndpoint(app, api.liked, (request) => service.liked(requireCustomer(request), request.query));
    registerEndpoint(app, api.commented, (request) => service.commented(requireCustomer(request), request.query));
  };
}
