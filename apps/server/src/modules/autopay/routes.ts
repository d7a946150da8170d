import { AUTOPAY_MSG, autopayEndpoints as api, sandboxBankEndpoints } from '@ohgood/contract/autopay';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client';
import { customers } from '../../db/schema';
import { requireCustomer } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
import { ok } from '../../lib/envelope';
import { sandboxDeposits } from '../bank/sandbox-bank';
import type { AutopayService } from './service';

export function autopayRoutes(autopay: AutopayService): FastifyPluginAsync {
  return async (app) => {
    registerEndpoint(app, api.get, async (request) => ok(await autopay.get(requireCustomer(request))));
    registerEndpoint(app, api.set, async (request) => {
      const { autopay: on, consentVersion } = request.body;
      const setting = await autopay.set(requireCustomer(request), on, consentVersion);
      const message =
        setting.state === 'on' ? AUTOPAY_MSG.on : setting.autopay ? AUTOPAY_MSG.consented : AUTOPAY_MSG.off;
      return ok(setting, message);
    });
    registerEndpoint(app, api.sendCode, async (request) =>
      ok(await autopay.sendCode(requireCustomer(request)), AUTOPAY_MSG.codeSent),
    );
    registerEndpoint(app, api.confirmCode, async (request) =>
      ok(await autopay.confirmCode(requireCustomer(request), request.body.code), AUTOPAY_MSG.verified),
    );
  };
}

/**
 * The sandbox bank's "bank app" (development and the e2e server only, SANDBOX_BANK_INBOX): the 1원 deposits of
 * the caller's own linked account, so a person trying the app can read the code a real bank app would show.
 */
export function sandboxInboxRoutes(db: Db): FastifyPluginAsync {
  return async (app) => {
    registerEndpoint(app, sandboxBankEndpoints.deposits, async (request) => {
      const [customer] = await db
        .select({ bank: customers.accountName, account: customers.account })
        .from(customers)
        .where(eq(customers.id, requireCustomer(request)));
      if (!customer) return ok([]);
      const deposits = await sandboxDeposits(db, customer.bank, customer.account);
      return ok(deposits.map((row) => ({ ...row, at: row.at.toISOString() })));
    });
  };
}
