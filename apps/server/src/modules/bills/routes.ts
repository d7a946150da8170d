import { BILL_MSG } from '@ohgood/contract/bill-messages';
import { billEndpoints as api } from '@ohgood/contract/bills';
import type { FastifyPluginAsync } from 'fastify';
import { requireCustomer } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
import { ok } from '../../lib/envelope';
import type { BillsService } from './service';

export function billsRoutes(bills: BillsService): FastifyPluginAsync {
  return async (app) => {
    registerEndpoint(app, api.info, async (request) => bills.info(requireCustomer(request)));

    registerEndpoint(app, api.statements, async (request) => ok(await bills.status(requireCustomer(request))));

    registerEndpoint(app, api.extension, async (request) =>
      ok(await bills.extend(requireCustomer(request)), BILL_MSG.extensionSuccess),
    );

    registerEndpoint(app, api.repay, async (request) => {
      const ids = Array.isArray(request.body) ? request.body : request.body.paymentIds;
      return ok(await bills.repay(requireCustomer(request), ids), BILL_MSG.repaySuccess);
    });

    registerEndpoint(app, api.payThisMonth, async (request) => bills.thisMonth(requireCustomer(request)));
  };
}
