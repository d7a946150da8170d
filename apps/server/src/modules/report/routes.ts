import { reportEndpoints as api } from '@ohgood/contract/report';
import { ANALYSIS_WINDOW } from '@ohgood/contract/report-rules';
import type { FastifyPluginAsync } from 'fastify';
import { requireCustomer } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
import { ok } from '../../lib/envelope';
import type { ReportService } from './service';

/** The report. Any customerId in a body or query is ignored: the token decides whose report it is. */
export function reportRoutes(report: ReportService): FastifyPluginAsync {
  return async (app) => {
    registerEndpoint(app, api.score, async (request) => ok(await report.score(requireCustomer(request))));

    registerEndpoint(app, api.analyze, async (request) => {
      const windowMonths = request.body?.windowMonths ?? ANALYSIS_WINDOW.default;
      return ok(await report.analyze(requireCustomer(request), windowMonths));
    });

    registerEndpoint(app, api.advice, async (request) => ok(await report.advice(requireCustomer(request))));
  };
}
