import { loginRequest, loginResponse, registerRequest, registerResponse } from '@ohgood/contract/auth';
import { errorBody } from '@ohgood/contract/envelope';
import { MSG } from '@ohgood/contract/messages';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import type { AuthService } from './service';

export function authRoutes(auth: AuthService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/public/register',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: '회원가입',
          body: registerRequest,
          response: { 200: registerResponse, 400: errorBody, 409: errorBody, 429: errorBody },
        },
      },
      async (request) => ok(await auth.register(request.body, request.ip), MSG.registerSuccess),
    );

    app.post(
      '/auth',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: '로그인',
          body: loginRequest,
          response: { 200: loginResponse, 401: errorBody, 429: errorBody },
        },
      },
      async (request) => auth.login(request.body, request.ip),
    );
  };
}
