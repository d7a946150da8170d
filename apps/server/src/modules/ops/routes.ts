import { opsEndpoints as api } from '@ohgood/contract/ops';
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client';
import { requireStaff } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
import { trialBalance } from '../ledger/trial-balance';
import { latestReconciliation, recentReconciliations, reconciliationOf } from '../reconciliation/reads';
import { readAudit } from './audit';
import type { OpsCustomersService } from './customers-service';
import { enrolmentPath } from './enrolment-link';
import type { createOpsMerchantsService } from './merchants-service';
import type { ModerationService } from './moderation-service';
import { openStaffAlerts } from './staff-alerts';
import { actorOf, meOf } from './staff-principal';
import type { StaffService } from './staff-service';

export interface OpsServices {
  db: Db;
  staff: StaffService;
  customers: OpsCustomersService;
  merchants: ReturnType<typeof createOpsMerchantsService>;
  moderation: ModerationService;
}

/** The console's routes (HTTP only); the guard has checked each endpoint's declared roles already. */
export function opsRoutes(s: OpsServices): FastifyPluginAsync {
  return async (app) => {
    registerEndpoint(app, api.signIn, async (request) => ({
      token: await s.staff.signIn(request.body.email, request.body.password, request.ip),
      stage: 'TOTP' as const,
    }));
    registerEndpoint(app, api.verifyTotp, async (request) => {
      const principal = requireStaff(request);
      await s.staff.verifyTotp(principal, request.body.code);
      return meOf(principal);
    });
    registerEndpoint(app, api.signOut, async (request) => {
      await s.staff.signOut(requireStaff(request));
      return { ok: true as const };
    });
    registerEndpoint(app, api.me, async (request) => meOf(requireStaff(request)));
    registerEndpoint(app, api.enrolment, async (request) => s.staff.enrolment(request.params.token));
    registerEndpoint(app, api.enrol, async (request) => {
      await s.staff.enrol(request.params.token, request.body.password, request.body.code);
      return { ok: true as const };
    });

    registerEndpoint(app, api.home, async () => ({
      ...(await s.customers.home()),
      openReports: await s.moderation.openCount(),
      reconciliation: await latestReconciliation(s.db),
      alerts: await openStaffAlerts(s.db),
    }));
    registerEndpoint(app, api.searchCustomers, async (request) => ({
      items: await s.customers.search(requireStaff(request), request.query.q),
    }));
    registerEndpoint(app, api.customer, async (request) => s.customers.page(request.params.id));
    registerEndpoint(app, api.reveal, async (request) =>
      s.customers.reveal(requireStaff(request), request.params.id, request.body.field, request.body.reason),
    );
    registerEndpoint(app, api.customerAudit, async (request) =>
      readAudit(s.db, { targetType: 'customer', targetId: String(request.params.id) }),
    );
    registerEndpoint(app, api.suspend, async (request) =>
      s.customers.suspend(requireStaff(request), request.params.id, request.body.reason),
    );
    registerEndpoint(app, api.lift, async (request) =>
      s.customers.lift(requireStaff(request), request.params.id, request.body.reason),
    );
    registerEndpoint(app, api.resetLockouts, async (request) => ({
      cleared: await s.customers.resetLockouts(requireStaff(request), request.params.id, request.body.reason),
    }));
    registerEndpoint(app, api.revokeSessions, async (request) => ({
      revokedAt: await s.customers.revokeSessions(requireStaff(request), request.params.id, request.body.reason),
    }));
    registerEndpoint(app, api.changeLimit, async (request) =>
      s.customers.changeLimit(requireStaff(request), request.params.id, request.body.limit, request.body.reason),
    );
    registerEndpoint(app, api.refund, async (request) =>
      s.customers.refund(requireStaff(request), request.params.paymentId, request.body.reason),
    );

    registerEndpoint(app, api.trialBalance, async () => trialBalance(s.db));
    registerEndpoint(app, api.merchants, async () => ({ items: await s.merchants.list() }));
    registerEndpoint(app, api.merchant, async (request) => s.merchants.detail(request.params.id));
    registerEndpoint(app, api.createMerchant, async (request) =>
      s.merchants.create(requireStaff(request), request.body),
    );
    registerEndpoint(app, api.disableMerchant, async (request) => {
      await s.merchants.disable(requireStaff(request), request.params.id, request.body.reason);
      return { ok: true as const };
    });
    registerEndpoint(app, api.rotateMerchantKey, async (request) =>
      s.merchants.rotateKey(requireStaff(request), request.params.id, request.body.reason),
    );

    registerEndpoint(app, api.staff, async () => ({ items: await s.staff.list() }));
    registerEndpoint(app, api.createStaff, async (request) => {
      const { reason, ...input } = request.body;
      const created = await s.staff.createStaff(input, actorOf(requireStaff(request)), reason);
      return { staffId: created.staffId, enrolmentUrl: enrolmentPath(created.enrolmentToken) };
    });
    registerEndpoint(app, api.setStaffRole, async (request) =>
      s.staff.setRole(requireStaff(request), request.params.id, request.body.role, request.body.reason),
    );
    registerEndpoint(app, api.disableStaff, async (request) =>
      s.staff.disable(requireStaff(request), request.params.id, request.body.reason),
    );
    registerEndpoint(app, api.audit, async (request) => readAudit(s.db, request.query));

    registerEndpoint(app, api.reconciliations, async () => ({ items: await recentReconciliations(s.db) }));
    registerEndpoint(app, api.reconciliation, async (request) => reconciliationOf(s.db, request.params.day));

    registerEndpoint(app, api.moderation, async (request) => s.moderation.queue(request.query.state));
    registerEndpoint(app, api.decide, async (request) =>
      s.moderation.decide(requireStaff(request), request.params.caseId, request.body.action, request.body.reason),
    );
    registerEndpoint(app, api.strike, async (request) =>
      s.moderation.strike(requireStaff(request), request.params.customerId, request.body.reason),
    );
    registerEndpoint(app, api.uploadBan, async (request) =>
      s.moderation.uploadBan(requireStaff(request), request.params.customerId, request.body.days, request.body.reason),
    );
  };
}
