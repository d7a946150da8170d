import { chatRequest, chatResponse, clearSessionRequest, clearSessionResponse } from '@ohgood/contract/chat';
import { errorBody } from '@ohgood/contract/envelope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireCustomer } from '../../http/auth-guard';
import { ok } from '../../lib/envelope';
import type { ChatService } from './service';

/** POST /chat and POST /chat/clear-session (spec §7). HTTP only: the service holds the rules. */
export function chatRoutes(chat: ChatService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/chat',
      {
        schema: {
          tags: ['chat'],
          summary: '오굿이 챗봇: 한 턴 대화 (세션은 토큰의 고객에게 묶임)',
          body: chatRequest,
          response: { 200: chatResponse, 403: errorBody },
        },
      },
      async (request) => {
        const reply = await chat.turn(requireCustomer(request), request.body);
        return ok(reply, 'OK');
      },
    );

    app.post(
      '/chat/clear-session',
      {
        schema: {
          tags: ['chat'],
          summary: '오굿이 챗봇: 세션 초기화',
          body: clearSessionRequest,
          response: { 200: clearSessionResponse, 403: errorBody },
        },
      },
      async (request) =>
        ok(await chat.clear(requireCustomer(request), request.body.sessionId), '세션이 초기화되었습니다.'),
    );
  };
}
