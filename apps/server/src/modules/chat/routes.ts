import { chatEndpoints as api } from '@ohgood/contract/chat';
import type { FastifyPluginAsync } from 'fastify';
import { requireCustomer } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
import { ok } from '../../lib/envelope';
import type { ChatService } from './service';

/** POST /chat and POST /chat/clear-session (docs/rules/api.md#A1). HTTP only: the service holds the rules. */
export function chatRoutes(chat: ChatService): FastifyPluginAsync {
  return async (app) => {
    registerEndpoint(app, api.turn, async (request) => ok(await chat.turn(requireCustomer(request), request.body)));

    registerEndpoint(app, api.clearSession, async (request) =>
      ok(await chat.clear(requireCustomer(request), request.body.sessionId), '세션이 초기화되었습니다.'),
    );
  };
}
