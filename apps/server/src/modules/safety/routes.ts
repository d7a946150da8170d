import { safetyEndpoints as api } from '@ohgood/contract/safety';
import { SAFETY_MSG } from '@ohgood/contract/safety-rules';
import type { FastifyPluginAsync } from 'fastify';
import { requireCustomer } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
import { ok } from '../../lib/envelope';
import type { SafetyService } from './service';

export function safetyRoutes(safety: SafetyService): FastifyPluginAsync {
  return async (app) => {
    registerEndpoint(app, api.report, async (request) =>
      ok(await safety.report(requireCustomer(request), request.body), SAFETY_MSG.reported),
    );
    registerEndpoint(app, api.block, async (request) => {
      await safety.block(requireCustomer(request), request.params.customerId);
      return ok({ customerId: request.params.customerId, blocked: true }, SAFETY_MSG.blocked);
    });
    registerEndpoint(app, api.unblock, async (request) => {
      await safety.unblock(requireCustomer(request), request.params.customerId);
      return ok({ customerId: request.params.customerId, blocked: false }, SAFETY_MSG.unblocked);
    });
    registerEndpoint(app, api.blocks, async (request) => ok(await safety.list(requireCustomer(request))));
  };
}
