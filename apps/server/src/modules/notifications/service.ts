import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { createNoticeActions } from './notices-actions';
import { createNoticeReads } from './notices-reads';
import type { PushEndpointRules } from './push-endpoints';

/**
 * The customer's own notices, preferences and devices (docs/rules/notifications.md#N7): what they read
 * (`notices-reads.ts`) and what they do (`notices-actions.ts`), with the SQL of both in
 * `notices-repository.ts`.
 */
export function createNotificationService(db: Db, clock: Pick<Clock, 'now'>, push: PushEndpointRules) {
  return { ...createNoticeReads(db, clock), ...createNoticeActions(db, clock, push) };
}
export type NotificationService = ReturnType<typeof createNotificationService>;
