import { errorBody } from '@ohgood/contract/envelope';
import { adviceResponse, analyzeRequest, analyzeResponse, scoreResponse } from '@ohgood/contract/report';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireCustomer } from '../../http/auth-guard';
import { ok } from '../../lib/envelope';
import type { ReportService } from './service';

/** The report (spec §7 "Check-in and dashboard"). Any customerId in a body is ignored: the token decides. */
export function reportRoutes(report: ReportService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/dash/saymyname',
      { schema: { tags: ['report'], summary: '오굿 점수와 그 이유', response: { 200: scoreResponse } } },
      async (request) => ok(await report.score(requireCustomer(request))),
    );

    app.post(
      '/api/dash/analyze',
      {
        schema: {
          tags: ['report'],
          summary: '월별·카테고리별 소비 분석',
          body: analyzeRequest,
          response: { 200: analyzeResponse, 400: errorBody },
        },
      },
      async (request) => ok(await report.analyze(requireCustomer(request), request.body.windowMonths)),
    );

    app.post(
      '/api/dash/advice',
      { schema: { tags: ['report'], summary: '내 데이터로 만든 맞춤 조언', response: { 200: adviceResponse } } },
      async (request) => ok(await report.advice(requireCustomer(request))),
    );
  };
}
