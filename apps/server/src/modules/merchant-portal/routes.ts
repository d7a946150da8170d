import {
  portalEndpoints as api,
  merchantPaymentsEndpoints,
  merchantUserOpsEndpoints as opsApi,
} from '@ohgood/contract/merchant-portal';
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client';
import { requireMerchant, requireMerchantUser, requireStaff } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
import type { Clock } from '../../lib/clock';
import type { MerchantService } from '../merchants/service';
import { actorOf } from '../ops/staff-principal';
import { createPortalKeys } from './keys';
import { createPortalPayments } from './payments';
import { portalMeOf } from './principal';
import type { MerchantUserSignIn } from './sign-in';
import { createMerchantUsersAdmin } from './users-admin';

/**
 * The merchant portal's routes and the console's merchant-user routes (HTTP only): the guard has checked
 * each endpoint's access already, so every merchant id here comes from the key or the session.
 */
export function merchantPortalRoutes(db: Db, clock: Clock, signIn: MerchantUserSignIn, merchants: MerchantService) {
  const payments = createPortalPayments(db, clock, merchants);
  const keys = createPortalKeys(db, clock);
  const users = createMerchantUsersAdmin(db, clock);
  const plugin: FastifyPluginAsync = async (app) => {
    registerEndpoint(app, api.signIn, async (request) => ({
      token: await signIn.signIn(request.body.email, request.body.password, request.ip),
      stage: 'TOTP' as const,
    }));
    registerEndpoint(app, api.verifyTotp, async (request) => {
      const user = requireMerchantUser(request);
      await signIn.verifyTotp(user, request.body.code);
      return portalMeOf(user);
    });
    registerEndpoint(app, api.signOut, async (request) => {
      await signIn.signOut(requireMerchantUser(request));
      return { ok: true as const };
    });
    registerEndpoint(app, api.me, async (request) => portalMeOf(requireMerchantUser(request)));
    registerEndpoint(app, api.enrolment, async (request) => signIn.enrolment(request.params.token));
    registerEndpoint(app, api.enrol, async (request) => {
      await signIn.enrol(request.params.token, request.body.password, request.body.code);
      return { ok: true as const };
    });

    registerEndpoint(app, merchantPaymentsEndpoints.payments, async (request) =>
      payments.list(requireMerchant(request), request.query),
    );
    registerEndpoint(app, api.refund, async (request) =>
      payments.refund(requireMerchantUser(request), request.params.requestId, request.body.reason),
    );

    registerEndpoint(app, api.keys, async (request) => ({ items: await keys.list(requireMerchant(request)) }));
    registerEndpoint(app, api.createKey, async (request) => keys.create(requireMerchantUser(request)));
    registerEndpoint(app, api.rotateKey, async (request) =>
      keys.rotate(requireMerchantUser(request), request.params.keyId),
    );
    registerEndpoint(app, api.revokeKey, async (request) => {
      await keys.revoke(requireMerchantUser(request), request.params.keyId);
      return { ok: true as const };
    });

    registerEndpoint(app, opsApi.merchantUsers, async (request) => ({ items: await users.list(request.params.id) }));
    registerEndpoint(app, opsApi.createMerchantUser, async (request) =>
      users.create(actorOf(requireStaff(request)), request.params.id, request.body),
    );
    registerEndpoint(app, opsApi.endMerchantUserSessions, async (request) => {
      await users.endSessions(actorOf(requireStaff(request)), request.params.id, request.body.reason);
      return { ok: true as const };
    });
  };
  return plugin;
}
