import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { OutboundRules, Resolve } from '../../lib/outbound-address';
import { createWebhookActions } from './endpoints-actions';
import { createWebhookReads } from './endpoints-reads';

/**
 * A merchant's endpoints and deliveries (docs/rules/webhooks.md#W1, #W5): what the merchant reads
 * (`endpoints-reads.ts`) and does (`endpoints-actions.ts`), with the SQL of both in `endpoints-repository.ts`.
 * Every read and change is scoped to the merchant the key authenticated: another merchant's endpoint or
 * delivery is "not found", never "forbidden", so ids cannot be probed.
 */
export function createWebhookService(
  db: Db,
  clock: Clock,
  rules: OutboundRules & { resolve?: Resolve },
  /** Wakes the sender after a test event or a replay is queued. */
  onEnqueued: () => void = () => undefined,
) {
  return { ...createWebhookActions(db, clock, rules, onEnqueued), ...createWebhookReads(db, clock) };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
