import { checkinEndpoints as api } from '@ohgood/contract/checkin';
import type { FastifyPluginAsync } from 'fastify';
import { requireCustomer } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
import { ok } from '../../lib/envelope';
import type { CheckinService } from './service';

export function checkinRoutes(checkin: CheckinService): FastifyPluginAsync {
  return async (app) => {
    registerEndpoint(app, api.today, async (request) => checkin.doneToday(requireCustomer(request)));

    registerEndpoint(app, api.roulette, async (request) => {
      const result = await checkin.spin(requireCustomer(request));
      return ok(result, `${result.point}P 적립되었습니다.`);
    });
  };
}
