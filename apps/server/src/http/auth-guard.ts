import type { EndpointAccess } from '@ohgood/contract/endpoint';
import { MSG } from '@ohgood/contract/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from '../lib/errors';
import type { TokenService } from '../modules/auth/tokens';

/** Who may call a route (declared per endpoint in the contract). Default-deny: a route that says nothing
 * needs a customer token. */
export type RouteAccess = EndpointAccess;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyRequest {
    customerId: number | null;
  }
}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return null;
  return header.slice(7).trim() || null;
}

/** The caller's id from the token; identity comes from nowhere else (domain §1). */
export function requireCustomer(request: FastifyRequest): number {
  if (request.customerId === null) throw unauthorized(MSG.unauthorized);
  return request.customerId;
}

export function registerAuthGuard(app: FastifyInstance, tokens: TokenService): void {
  app.decorateRequest('customerId', null);
  app.addHook('onRequest', async (request) => {
    // Unmatched paths reach the not-found handler: the SPA fallback or a JSON 404, never a 401.
    if (request.is404) return;
    const access = request.routeOptions.config.access ?? 'customer';
    if (access === 'public' || access === 'merchant') return;
    const token = bearer(request);
    const customerId = token ? await tokens.verify(token) : null;
    if (customerId === null && access === 'customer') throw unauthorized(MSG.unauthorized);
    request.customerId = customerId;
  });
}
