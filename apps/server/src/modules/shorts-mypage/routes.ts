import { errorBody } from '@ohgood/contract/envelope';
import {
  channelPageResponse,
  listQuery,
  overviewQuery,
  overviewResponse,
  videoPageResponse,
} from '@ohgood/contract/shorts-discovery';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireCustomer } from '../../http/auth-guard';
import { ok } from '../../lib/envelope';
import type { ShortsMypageService } from './service';

const tags = ['shorts-mypage'];
const errors = { 400: errorBody, 401: errorBody, 404: errorBody };

/** The shorts my page (spec §7): overview and three keyset-paged lists of the caller's own activity. */
export function shortsMypageRoutes(service: ShortsMypageService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/shorts/mypage/overview',
      {
        schema: {
          tags,
          summary: '쇼츠 마이페이지 요약',
          querystring: overviewQuery,
          response: { 200: overviewResponse, ...errors },
        },
      },
      async (request) => ok(await service.overview(requireCustomer(request), request.query.limit)),
    );
    app.get(
      '/api/shorts/mypage/subscribe',
      {
        schema: {
          tags,
          summary: '구독한 채널',
          querystring: listQuery,
          response: { 200: channelPageResponse, ...errors },
        },
      },
      async (request) => ok(await service.subscriptions(requireCustomer(request), request.query)),
    );
    app.get(
      '/api/shorts/mypage/all',
      {
        schema: {
          tags,
          summary: '좋아요 표시한 동영상',
          querystring: listQuery,
          response: { 200: videoPageResponse, ...errors },
        },
      },
      async (request) => ok(await service.liked(requireCustomer(request), request.query)),
    );
    app.get(
      '/api/shorts/mypage/comments',
      {
        schema: {
          tags,
          summary: '댓글 단 동영상',
          querystring: listQuery,
          response: { 200: videoPageResponse, ...errors },
        },
      },
      async (request) => ok(await service.commented(requireCustomer(request), request.query)),
    );
  };
}
