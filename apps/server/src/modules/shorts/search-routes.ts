import { discoveryEndpoints as api } from '@ohgood/contract/shorts-discovery';
import type { FastifyPluginAsync } from 'fastify';
import { registerEndpoint } from '../../http/endpoint';
import type { SearchService } from './search';

/** GET /api/public/shorts/search (docs/rules/api.md#A1): public (a token hides blocked creators), keyset-paged, bare. */
export function searchRoutes(service: SearchService): FastifyPluginAsync {
  return async (app) => {
    registerEndpoint(app, api.search, (request) => service.search(request.query, request.customerId));
  };
}
