import { AUTOPAY_MSG, autopayEndpoints as api } from '@ohgood/contract/autopay';
import type { FastifyPluginAsync } from 'fastify';
import { requireCustomer } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
import { ok } from '../../lib/envelope';
import type { AutopayService } from './service';

export function autopayRoutes(autopay: AutopayService): FastifyPluginAsync {
  return async (app) => {
    registerEndpoint(app, api.get, async (request) => ok(await autopay.get(requireCustomer(request))));
    registerEndpoint(app, api.set, async (request) => {
      const setting = await autopay.set(requireCustomer(request), request.body.autopay);
      return ok(setting, setting.autopay ? AUTOPAY_MSG.on : AUTOPAY_MSG.off);
    });
  };
}
