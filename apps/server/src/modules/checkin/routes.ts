import { checkinToday, rouletteQuery, rouletteResponse } from '@ohgood/contract/checkin';
import { errorBody } from '@ohgood/contract/envelope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireCustomer } from '../../http/auth-guard';
import { ok } from '../../lib/envelope';
import type { CheckinService } from './service';

export function checkinRoutes(checkin: CheckinService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/checkin/today',
      { schema: { tags: ['checkin'], summary: '오늘 출석 여부 (KST)', response: { 200: checkinToday } } },
      async (request) => checkin.doneToday(requireCustomer(request)),
    );

    app.post(
      '/api/checkin/roulette',
      {
        schema: {
          tags: ['checkin'],
          summary: '출석 룰렛: 서버가 당첨 포인트를 뽑아 적립',
          querystring: rouletteQuery,
          response: { 200: rouletteResponse, 409: errorBody },
        },
      },
      async (request) => {
        const result = await checkin.spin(requireCustomer(request));
        return ok(result, `${result.point}P 적립되었습니다.`);
      },
    );
  };
}
