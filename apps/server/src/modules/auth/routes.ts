import { authEndpoints as api } from '@ohgood/contract/auth';
import { MSG } from '@ohgood/contract/messages';
import type { FastifyPluginAsync } from 'fastify';
import { registerEndpoint } from '../../http/endpoint';
import { ok } from '../../lib/envelope';
import type { AuthService } from './service';

export function authRoutes(auth: AuthService): FastifyPluginAsync {
  return async (app) => {
    registerEndpoint(app, api.register, async (request) => ok(await auth.register(request.body), MSG.registerSuccess));
    registerEndpoint(app, api.login, async (request) => auth.login(request.body, request.ip));
  };
}
