import { discoveryEndpoints as api } from '@ohgood/contract/shorts-discovery';
import type { FastifyPluginAsync } from 'fastify';
import { registerEndpoint } from '../../http/endpoint';
import { ok } from '../../lib/envelope';
import type { SearchService } from './search';

/** GET /api/public/shorts/search (docs/rules/api.md#A1): public (a token hides blocked creators), keyset-paged. */
export function searchRoutes(service: SearchService): FastifyPluginAsync {
  return async (app) => {
    registerEndpoint(app, api.search, async (request) => ok(await service.search(request.query, request.customerId)));
  };
}
