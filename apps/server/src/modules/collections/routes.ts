import { opsCollectionsEndpoints as api } from '@ohgood/contract/ops-collections';
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client';
import { requireStaff } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
import { jobsOverview } from '../../jobs/overview';
import { rerunPeriod } from '../../jobs/rerun';
import type { JobContext, JobName } from '../../jobs/runner';
import type { Clock } from '../../lib/clock';
import { writeAudit } from '../ops/audit';
import { actorOf } from '../ops/staff-principal';
import type { CollectionsService } from './service';

export interface CollectionsRouteDeps {
  db: Db;
  clock: Clock;
  collections: CollectionsService;
  /** What jobs read outside the database; the sandbox bank by default. */
  jobContext?: JobContext;
  /** Work after a re-run commits, as after a scheduled run (autopay's debits). */
  afterRun?: (job: JobName) => Promise<void>;
}

/** The console's collections and jobs routes (HTTP only); the guard has checked each endpoint's roles. */
export function collectionsRoutes(d: CollectionsRouteDeps): FastifyPluginAsync {
  const c = d.collections;
  return async (app) => {
    registerEndpoint(app, api.debits, async (request) => c.debits(request.params.id));
    registerEndpoint(app, api.retryDebit, async (request) =>
      c.retryDebit(requireStaff(request), request.params.id, request.body.statementId, request.body.reason),
    );
    registerEndpoint(app, api.debitAccount, async (request) =>
      c.changeDebitAccount(
        requireStaff(request),
        request.params.id,
        request.body.bank,
        request.body.account,
        request.body.reason,
      ),
    );
    registerEndpoint(app, api.remind, async (request) =>
      c.remind(requireStaff(request), request.params.id, request.body.reason),
    );
    registerEndpoint(app, api.collectionList, async (request) => c.list(request.query));
    registerEndpoint(app, api.bulkPreview, async (request) => c.preview(requireStaff(request), request.body));
    registerEndpoint(app, api.bulkConfirm, async (request) => c.confirm(requireStaff(request), request.body.token));
    registerEndpoint(app, api.jobs, async () => ({
      now: d.clock.now().toISOString(),
      items: await jobsOverview(d.db, d.clock.now()),
    }));
    registerEndpoint(app, api.rerunJob, async (request) => {
      const by = requireStaff(request);
      const { job } = request.params;
      const { date, reason } = request.body;
      return rerunPeriod(d.db, d.clock, job, date, {
        context: d.jobContext,
        afterRun: d.afterRun,
        audit: (tx, result) =>
          writeAudit(tx, actorOf(by), d.clock.now(), {
            action: 'job.rerun',
            targetType: 'job',
            targetId: job,
            reason,
            after: { date, result },
          }),
      });
    });
  };
}
