import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { notifications, pushDeliveries, pushSubscriptions } from '../../db/schema';
import { rowsOf, withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { coalesced } from '../../lib/coalesced';

/**
 * `web-push` and its crypto dependencies (~0.15 MB of the server's code) load when first needed, not with every
 * start: to make a data directory's keys, and for the first push sent.
 */
const loadWebPush = () => import('web-push').then((module) => module.default);

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/**
 * The VAPID key pair: from the environment when both halves are set (several instances must share one),
 * else generated once into `DATA_DIR/vapid.json` (mode 600) like the JWT secret, so subscriptions made
 * against it keep working after a restart.
 */
export async function resolveVapidKeys(
  env: { VAPID_PUBLIC_KEY?: string; VAPID_PRIVATE_KEY?: string; VAPID_SUBJECT: string },
  dataDir: string,
): Promise<VapidKeys> {
  const subject = env.VAPID_SUBJECT;
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) {
    return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject };
  }
  const file = join(dataDir, 'vapid.json');
  if (existsSync(file)) return { ...(JSON.parse(readFileSync(file, 'utf8')) as VapidKeys), subject };
  const keys = (await loadWebPush()).generateVAPIDKeys();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return { ...keys, subject };
}

/** What the service worker receives (and shows). */
export interface PushPayload {
  id: number;
  title: string;
  body: string;
  link: string;
}

/** Notices handed to their devices per transaction, and deliveries claimed per round of sends. */
const BATCH = 50;
const CLAIM = 100;
/** Sends in flight at once per instance: a few black-holed devices cannot hold up the rest. */
const CONCURRENCY = 16;
/**
 * After the n-th failed attempt a delivery waits PUSH_RETRY_MINUTES[n - 1] minutes; the attempt after the last
 * wait is the last: a device that fails it too is dropped (it has failed for more than two and a half hours).
 */
export const PUSH_RETRY_MINUTES = [1, 5, 30, 120] as const;
export const PUSH_MAX_ATTEMPTS = PUSH_RETRY_MINUTES.length + 1;

export interface PushSender {
  /** Sends every push that is due, once per cluster; resolves with how many device attempts it made. */
  drain(): Promise<number>;
}

type Subscription = typeof pushSubscriptions.$inferSelect;
interface Claimed {
  noticeId: number;
  attempts: number;
  subscription: Pick<Subscription, 'id' | 'endpoint' | 'p256dh' | 'auth'>;
  payload: PushPayload;
}

/** Runs `work` on every item, at most `limit` at a time; `work` never rejects (it contains its failures). */
async function eachConcurrently<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Web Push (docs/rules/notifications.md#N6): `web-push` builds each request (payload encrypted for the
 * device, `aes128gcm`, and the VAPID signature); this sender posts it. A due notice is handed to its
 * customer's devices in one transaction (`pushed_at` stamped, one `push_deliveries` row per device, `FOR
 * UPDATE SKIP LOCKED` so two instances never hand it out twice). Deliveries are then claimed (leased for the
 * timeout, so no other instance sends them meanwhile) and sent side by side, each with its own timeout and
 * its own failure: a key that cannot be encrypted for, a refused or hung connection or a 5xx costs that one
 * delivery an attempt and nothing else. A delivery is deleted only after its attempt succeeded; a failed one
 * waits (PUSH_RETRY_MINUTES) and a device that fails every attempt is dropped. A push service answering 404 or
 * 410 means the subscription is gone: it is deleted at once.
 */
export function createPushSender(
  db: Db,
  clock: Clock,
  vapid: VapidKeys,
  log: FastifyBaseLogger,
  options: { timeoutMs: number },
): PushSender {
  async function sendOne(delivery: Claimed): Promise<'sent' | 'gone' | 'failed'> {
    // Everything about one device stays inside this try: its encryption throws for a key that is not a
    // P-256 point (a subscription stored before subscribe checked keys), and that is this device's failure.
    try {
      const { subscription } = delivery;
      const details = (await loadWebPush()).generateRequestDetails(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        JSON.stringify(delivery.payload),
        { vapidDetails: vapid, TTL: 24 * 3600, contentEncoding: 'aes128gcm' },
      );
      const response = await fetch(details.endpoint, {
        method: details.method,
        headers: details.headers as unknown as Record<string, string>,
        body: details.body ?? undefined,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      // The answer's body is never read: release it so the connection is not held.
      await response.body?.cancel().catch(() => undefined);
      if (response.status === 404 || response.status === 410) return 'gone';
      return response.ok ? 'sent' : 'failed';
    } catch {
      return 'failed';
    }
  }

  /** Hands up to BATCH due notices to their customers' devices; resolves with how many notices it took. */
  async function handOut(now: Date): Promise<number> {
    return withTx(db, async (tx) => {
      const rows = await rowsOf<{ id: string }>(
        tx,
        sql`with due as (
            select id from ${notifications} where pushed_at is null and push_due_at <= ${now}
            order by push_due_at, id limit ${BATCH} for update skip locked),
          stamped as (
            update ${notifications} set pushed_at = ${now} from due where ${notifications.id} = due.id
            returning ${notifications.id} as id, ${notifications.customerId} as customer_id),
          handed as (
            insert into ${pushDeliveries} (notice_id, subscription_id, next_attempt_at)
            select stamped.id, s.id, ${now} from stamped
            join ${pushSubscriptions} s on s.customer_id = stamped.customer_id
            on conflict do nothing)
          select id from stamped`,
      );
      return rows.length;
    });
  }

  /** Claims up to CLAIM due deliveries, leased until their attempt's timeout has long passed. */
  async function claim(now: Date): Promise<Claimed[]> {
    const leaseUntil = new Date(now.getTime() + options.timeoutMs + 60_000);
    const rows = await withTx(db, (tx) =>
      rowsOf<{
        notice_id: string;
        attempts: number;
        subscription_id: number;
        endpoint: string;
        p256dh: string;
        auth: string;
        title: string;
        body: string;
        link: string;
      }>(
        tx,
        sql`with due as (
            select d.notice_id, d.subscription_id from ${pushDeliveries} d
            where d.next_attempt_at <= ${now}
            order by d.next_attempt_at limit ${CLAIM} for update skip locked),
          leased as (
            update ${pushDeliveries} d set next_attempt_at = ${leaseUntil} from due
            where d.notice_id = due.notice_id and d.subscription_id = due.subscription_id
            returning d.notice_id, d.subscription_id, d.attempts)
          select leased.notice_id, leased.attempts, s.id as subscription_id, s.endpoint, s.p256dh, s.auth,
            n.title, n.body, n.link
          from leased
          join ${pushSubscriptions} s on s.id = leased.subscription_id
          join ${notifications} n on n.id = leased.notice_id and n.customer_id = s.customer_id`,
      ),
    );
    return rows.map((row) => ({
      noticeId: Number(row.notice_id),
      attempts: row.attempts,
      subscription: { id: row.subscription_id, endpoint: row.endpoint, p256dh: row.p256dh, auth: row.auth },
      payload: { id: Number(row.notice_id), title: row.title, body: row.body, link: row.link },
    }));
  }

  /** Records one attempt's outcome: only now is the notice pushed to this device, or owed to it again. */
  async function settle(delivery: Claimed, outcome: 'sent' | 'gone' | 'failed'): Promise<void> {
    const { noticeId, subscription } = delivery;
    const mine = and(eq(pushDeliveries.noticeId, noticeId), eq(pushDeliveries.subscriptionId, subscription.id));
    if (outcome === 'sent') {
      await db.delete(pushDeliveries).where(mine);
      return;
    }
    const attempts = delivery.attempts + 1;
    if (outcome === 'gone' || attempts >= PUSH_MAX_ATTEMPTS) {
      // The device goes, with every delivery still owed to it (ON DELETE CASCADE).
      await db
        .delete(pushSubscriptions)
        .where(and(eq(pushSubscriptions.id, subscription.id), eq(pushSubscriptions.endpoint, subscription.endpoint)));
      if (outcome === 'failed') log.warn({ subscription: subscription.id, attempts }, 'web push device dropped');
      return;
    }
    const wait = (PUSH_RETRY_MINUTES[attempts - 1] ?? 0) * 60_000;
    await db
      .update(pushDeliveries)
      .set({ attempts, nextAttemptAt: new Date(clock.now().getTime() + wait) })
      .where(mine);
    log.warn({ notice: noticeId, subscription: subscription.id, attempts }, 'web push failed; retried later');
  }

  async function drainOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const handed = await handOut(clock.now());
      const claimed = await claim(clock.now());
      await eachConcurrently(claimed, CONCURRENCY, async (delivery) => {
        const outcome = await sendOne(delivery);
        await settle(delivery, outcome).catch((error) =>
          // The lease runs out and the delivery is tried again: a repeat, never a loss.
          log.error({ err: error, subscription: delivery.subscription.id }, 'web push outcome not recorded'),
        );
      });
      total += claimed.length;
      // Short batches were everything due: no transaction only to find none (later ones take the next drain).
      if (handed < BATCH && claimed.length < CLAIM) return total;
    }
  }

  return {
    // One drain at a time per instance; a call during one runs once more after it.
    drain: coalesced(drainOnce),
  };
}
