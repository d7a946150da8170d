import { opsDeskEndpoints as api } from '@ohgood/contract/ops-desk';
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../../db/client';
import { requireStaff } from '../../../http/auth-guard';
import { registerEndpoint } from '../../../http/endpoint';
import type { Clock } from '../../../lib/clock';
import { notFoundCustomer } from '../customers-reads';
import { findCustomer } from '../customers-repository';
import { addContactNote } from './contact-notes';
import { customerTimeline } from './timeline';
import { createWorkLists } from './work-lists';

/** The operator's desk (docs/rules/operations.md#O16–#O17): work lists, a customer's timeline, contact notes. */
export function opsDeskRoutes(db: Db, clock: Clock): FastifyPluginAsync {
  const lists = createWorkLists(db, clock);
  return async (app) => {
    registerEndpoint(app, api.overdueList, async (request) => lists.overdue(request.query));
    registerEndpoint(app, api.failedDebitsList, async (request) => lists.failedDebits(request.query));
    registerEndpoint(app, api.pendingVerificationList, async (request) => lists.pendingVerification(request.query));
    registerEndpoint(app, api.timeline, async (request) => {
      if (!(await findCustomer(db, request.params.id))) throw notFoundCustomer();
      return customerTimeline(db, request.params.id, request.query.cursor);
    });
    registerEndpoint(app, api.addNote, async (request) =>
      addContactNote(db, clock, requireStaff(request), request.params.id, request.body),
    );
  };
}
