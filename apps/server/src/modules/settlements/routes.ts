import {
  merchantSettlementEndpoints as merchantApi,
  opsSettlementEndpoints as opsApi,
} from '@ohgood/contract/settlements';
import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { requireMerchant, requireStaff } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
import type { SettlementOpsActions } from './ops-actions';
import { merchantSettlement, merchantSettlements, merchantSettlementView, settlementCsv } from './reads';

/**
 * A merchant's own settlements (`X-Merchant-Key`, docs/rules/settlement.md#M7). Every read takes the merchant
 * the guard resolved, so any session the merchant guard accepts reads the same way.
 */
export function merchantSettlementRoutes(db: Db): FastifyPluginAsyncZod {
  return async (app) => {
    registerEndpoint(app, merchantApi.list, async (request) => ({
      items: await merchantSettlements(db, requireMerchant(request), request.query.before),
    }));
    registerEndpoint(app, merchantApi.get, async (request) =>
      merchantSettlement(db, requireMerchant(request), request.params.settlementId),
    );
    registerEndpoint(app, merchantApi.csv, async (request, reply) => {
      const { settlementId } = request.params;
      const csv = await settlementCsv(db, requireMerchant(request), settlementId);
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="settlement-${settlementId}.csv"`)
        .send(csv);
      return reply as never;
    });
  };
}

/** The console's settlement endpoints; the guard has checked each one's declared roles already. */
export function opsSettlementRoutes(db: Db, actions: SettlementOpsActions): FastifyPluginAsync {
  const ok = { ok: true as const };
  return async (app) => {
    registerEndpoint(app, opsApi.merchantSettlement, async (request) => merchantSettlementView(db, request.params.id));
    registerEndpoint(app, opsApi.setSettlementTerms, async (request) => {
      await actions.setTerms(requireStaff(request), request.params.id, request.body);
      return ok;
    });
    registerEndpoint(app, opsApi.setSettlementAccount, async (request) => {
      await actions.setAccount(requireStaff(request), request.params.id, request.body);
      return ok;
    });
    registerEndpoint(app, opsApi.verifySettlementAccount, async (request) => {
      await actions.verifyAccount(requireStaff(request), request.params.id, request.body.reason);
      return ok;
    });
    registerEndpoint(app, opsApi.holdPayouts, async (request) => {
      await actions.hold(requireStaff(request), request.params.id, request.body.reason);
      return ok;
    });
    registerEndpoint(app, opsApi.releasePayouts, async (request) => {
      await actions.release(requireStaff(request), request.params.id, request.body.reason);
      return ok;
    });
  };
}
