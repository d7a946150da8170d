import { errorBody } from '@ohgood/contract/envelope';
import { searchQuery, searchResponse } from '@ohgood/contract/shorts-discovery';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import type { SearchService } from './search';

/** GET /api/public/shorts/search (spec §7): public, keyset-paged. */
export function searchRoutes(service: SearchService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/public/shorts/search',
      {
        config: { access: 'public' },
        schema: {
          tags: ['shorts'],
          summary: '쇼츠 검색 (제목, 설명, 해시태그, 닉네임, 초성)',
          querystring: searchQuery,
          response: { 200: searchResponse, 400: errorBody },
        },
      },
      async (request) => ok(await service.search(request.query)),
    );
  };
}
