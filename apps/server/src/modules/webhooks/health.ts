import { kstIso } from '@ohgood/contract/kst';
import type { MerchantWebhookHealth, WebhookEndpointHealth } from '@ohgood/contract/webhooks';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { merchants } from '../../db/schema';
import { rowsOf } from '../../db/tx';
import { notFound } from '../../lib/errors';

const DAY_MS = 24 * 3_600_000;

interface HealthRow {
  id: string;
  url: string;
  events: WebhookEndpointHealth['events'];
  created_at: Date;
  pending: number;
  failing: number;
  oldest_pending_at: Date | null;
  tried: number;
  succeeded: number;
  failed: number;
  last_type: WebhookEndpointHealth['events'][number] | 'webhook.test' | null;
  last_status: 'PENDING' | 'SUCCEEDED' | 'FAILED' | null;
  last_code: number | null;
  last_at: Date | null;
}

/** The scheme and host of an endpoint's URL, the rest hidden: a path or query may carry the shop's token. */
export function maskedEndpointUrl(raw: string): string {
  const url = new URL(raw);
  const rest = `${url.pathname}${url.search}`;
  return `${url.protocol}//${url.host}${rest === '/' || rest === '' ? '' : '/…'}`;
}

/**
 * Every endpoint of one merchant with its figures, in one statement: its pending deliveries (the partial
 * pending index), those whose last attempt failed, the oldest pending one's queueing, the attempts since
 * `since` and the latest attempt (the endpoint–attempt index). It starts from this merchant's endpoints, so
 * another merchant's never shows.
 */
export function healthStatement(merchantId: number, now: Date): SQL {
  const since = new Date(now.getTime() - DAY_MS);
  return sql`select e.id, e.url, e.events, e.created_at,
      p.pending, p.failing, p.oldest_pending_at, r.tried, r.succeeded, r.failed,
      ev.type as last_type, l.status as last_status, l.response_code as last_code, l.last_attempt_at as last_at
    from webhook_endpoints e
    cross join lateral (
      select count(*)::int as pending,
        -- Tried and not being sent now: its last attempt failed and it waits for the next.
        (count(*) filter (where d.attempts > 0 and (d.leased_until is null or d.leased_until <= ${now})))::int
          as failing,
        min(d.created_at) as oldest_pending_at
      from webhook_deliveries d where d.endpoint_id = e.id and d.status = 'PENDING') p
    cross join lateral (
      select count(*)::int as tried,
        (count(*) filter (where d.status = 'SUCCEEDED'))::int as succeeded,
        (count(*) filter (where d.status = 'FAILED'))::int as failed
      from webhook_deliveries d where d.endpoint_id = e.id and d.last_attempt_at > ${since}) r
    left join lateral (
      select d.event_id, d.status, d.response_code, d.last_attempt_at
      from webhook_deliveries d where d.endpoint_id = e.id and d.last_attempt_at is not null
      order by d.last_attempt_at desc limit 1) l on true
    left join webhook_events ev on ev.id = l.event_id
    where e.merchant_id = ${merchantId}
    order by e.created_at, e.id`;
}

/** A merchant's webhook health for the console (docs/rules/webhooks.md#W10). */
export async function merchantWebhookHealth(db: Db, merchantId: number, now: Date): Promise<MerchantWebhookHealth> {
  const [merchant] = await db.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, merchantId));
  if (!merchant) throw notFound('MERCHANT_NOT_FOUND', '가맹점을 찾을 수 없습니다.');
  const rows = await rowsOf<HealthRow>(db, healthStatement(merchantId, now));
  return {
    merchantId,
    asOf: kstIso(now),
    endpoints: rows.map((row) => ({
      endpointId: row.id,
      url: maskedEndpointUrl(row.url),
      events: row.events,
      createdAt: kstIso(row.created_at),
      lastDelivery:
        row.last_at && row.last_type && row.last_status
          ? {
              eventType: row.last_type,
              status: row.last_status,
              responseCode: row.last_code,
              at: kstIso(row.last_at),
            }
          : null,
      pending: row.pending,
      failing: row.failing,
      oldestPendingSeconds: row.oldest_pending_at
        ? Math.max(0, Math.floor((now.getTime() - new Date(row.oldest_pending_at).getTime()) / 1000))
        : null,
      tried24h: row.tried,
      succeeded24h: row.succeeded,
      failed24h: row.failed,
    })),
  };
}
