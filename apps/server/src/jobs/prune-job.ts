import { pruneCounters } from '../db/rate-limit-counters';
import type { Tx } from '../db/tx';
import { pruneOldNotices } from '../modules/notifications/notices-repository';
import { pruneIdempotencyKeys } from '../modules/payments/idempotency-retention';
import { pruneOrphanWebhookEvents, pruneWebhookDeliveries } from '../modules/webhooks/retention';

/**
 * The daily prune (docs/rules/money-and-time.md#T8): drops rate-limit counters of ended windows and
 * idempotency answers past their retention, notices past theirs (notifications.md#N8), and merchant webhook
 * deliveries that are over, past theirs, then events no delivery refers to (webhooks.md#W9), measured from `at`. Deleting only what has expired, it can run
 * any number of times; a run for an earlier `at` keeps more, never less.
 */
export async function pruneExpired(
  tx: Tx,
  _today: string,
  at: Date,
): Promise<{
  rateLimitCounters: number;
  idempotencyKeys: number;
  notices: number;
  webhookDeliveries: number;
  webhookEvents: number;
}> {
  return {
    rateLimitCounters: await pruneCounters(tx, at),
    idempotencyKeys: await pruneIdempotencyKeys(tx, at),
    notices: await pruneOldNotices(tx, at),
    webhookDeliveries: await pruneWebhookDeliveries(tx, at),
    webhookEvents: await pruneOrphanWebhookEvents(tx, at),
  };
}
