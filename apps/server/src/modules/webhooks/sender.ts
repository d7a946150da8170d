import { WEBHOOK_RULES } from '@ohgood/contract/webhooks';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { webhookDeliveries } from '../../db/schema';
import { rowsOf } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { coalesced } from '../../lib/coalesced';
import { type OutboundRules, type Resolve, systemResolve } from '../../lib/outbound-address';
import { type PostOutcome, postJson } from './post';
import { signatureHeader } from './signature';

/** Deliveries one claim takes; they are sent side by side. */
const BATCH = 20;
/**
 * How long a claimed delivery is held by its sender: well past one attempt's time limit, so only a sender
 * that died mid-attempt ever loses it to another (which then tries again, as a retry).
 */
const LEASE_MS = 60_000;
/** The first retry's wait; each further one doubles, up to MAX_BACKOFF_MS. */
const FIRST_BACKOFF_MS = 30_000;
const MAX_BACKOFF_MS = 6 * 3_600_000;

/** The wait after the `attempts`-th failed attempt: 30 s, 1 min, 2 min, … at most 6 h. */
export function backoffMs(attempts: number): number {
  return Math.min(FIRST_BACKOFF_MS * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS);
}

export interface WebhookSenderOptions extends OutboundRules {
  timeoutMs?: number;
  resolve?: Resolve;
}

export interface WebhookSender {
  /** Sends every delivery due now; resolves with how many it attempted, once a drain begun after the call ends. */
  drain(): Promise<number>;
}

interface Claimed {
  id: number;
  url: string;
  body: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | null;
  give_up_at: Date;
  attempts: number;
}

/**
 * The webhook sender (docs/rules/webhooks.md#W4). Claims due deliveries with `FOR UPDATE SKIP LOCKED` and a
 * lease in a short transaction of its own, so instances share the work and never send one delivery at the
 * same time; POSTs each signed, outside any transaction; then records the outcome: success, or the next try
 * after back-off, or given up once the next try would fall after the delivery's three days. A delivery waits
 * while an earlier one of the same payment to the same endpoint is still pending, so a receiver hears of a
 * payment's events in the order they happened.
 */
export function createWebhookSender(db: Db, clock: Clock, options: WebhookSenderOptions): WebhookSender {
  const post = {
    allowLoopback: options.allowLoopback,
    resolve: options.resolve ?? systemResolve,
    timeoutMs: options.timeoutMs ?? WEBHOOK_RULES.timeoutSeconds * 1000,
  };

  async function claim(now: Date): Promise<Claimed[]> {
    return rowsOf<Claimed>(
      db,
      sql`with due as (
          select d.id from ${webhookDeliveries} d
          where d.status = 'PENDING' and d.next_attempt_at <= ${now}
            and (d.leased_until is null or d.leased_until <= ${now})
            and not exists (
              select 1 from webhook_deliveries e
              where e.endpoint_id = d.endpoint_id and e.order_key = d.order_key
                and e.status = 'PENDING' and e.id < d.id)
          order by d.next_attempt_at, d.id
          limit ${BATCH}
          for update of d skip locked),
        claimed as (
          update webhook_deliveries w
          set leased_until = ${new Date(now.getTime() + LEASE_MS)}, attempts = w.attempts + 1,
            last_attempt_at = ${now}
          from due where w.id = due.id
          returning w.id, w.endpoint_id, w.event_id, w.give_up_at, w.attempts)
        select c.id, ep.url, ev.body, ep.secret, ep.previous_secret, ep.previous_secret_until, c.give_up_at,
          c.attempts
        from claimed c
        join webhook_endpoints ep on ep.id = c.endpoint_id
        join webhook_events ev on ev.id = c.event_id
        order by c.id`,
    );
  }

  async function attempt(delivery: Claimed): Promise<void> {
    const sentAt = clock.now();
    const secrets = [delivery.secret];
    const previousUntil = delivery.previous_secret_until ? new Date(delivery.previous_secret_until) : null;
    if (delivery.previous_secret && previousUntil && previousUntil > sentAt) secrets.push(delivery.previous_secret);
    const outcome = await postJson(
      delivery.url,
      delivery.body,
      { [WEBHOOK_RULES.signatureHeader]: signatureHeader(secrets, sentAt, delivery.body) },
      post,
    );
    await record(delivery, outcome);
  }

  async function record(delivery: Claimed, outcome: PostOutcome): Promise<void> {
    const now = clock.now();
    const answered = 'status' in outcome ? outcome.status : null;
    const succeeded = answered !== null && answered >= 200 && answered < 300;
    const next = new Date(now.getTime() + backoffMs(delivery.attempts));
    const giveUp = next > new Date(delivery.give_up_at);
    await db
      .update(webhookDeliveries)
      .set({
        status: succeeded ? 'SUCCEEDED' : giveUp ? 'FAILED' : 'PENDING',
        responseCode: answered,
        durationMs: outcome.durationMs,
        error: 'error' in outcome ? outcome.error : null,
        leasedUntil: null,
        ...(succeeded || giveUp ? {} : { nextAttemptAt: next }),
      })
      // Only this attempt's outcome: a sender so late that its lease passed and another attempt began
      // records nothing over it.
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.attempts, delivery.attempts)));
  }

  async function drainOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const claimed = await claim(clock.now());
      if (claimed.length === 0) return total;
      await Promise.all(claimed.map(attempt));
      total += claimed.length;
    }
  }

  return { drain: coalesced(drainOnce) };
}
