import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { notifications, pushSubscriptions } from '../../db/schema';
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

const PUSH_TIMEOUT_MS = 10_000;
const BATCH = 50;

export interface PushSender {
  /** Sends every notice whose push is due, once per cluster; resolves with how many notices went out. */
  drain(): Promise<number>;
}

/**
 * Web Push (docs/rules/notifications.md#N6): `web-push` builds each request (payload encrypted for the
 * device, `aes128gcm`, and the VAPID signature); this sender posts it. A notice is claimed by stamping
 * `pushed_at` in its own transaction (`FOR UPDATE SKIP LOCKED`, so two instances never push the same notice),
 * then sent to every device of its customer: a push is sent at most once, and the notice itself is always in
 * the center. A push service answering 404 or 410 means the subscription is gone: it is deleted.
 */
export function createPushSender(db: Db, clock: Clock, vapid: VapidKeys, log: FastifyBaseLogger): PushSender {
  async function sendOne(
    subscription: typeof pushSubscriptions.$inferSelect,
    payload: PushPayload,
  ): Promise<'sent' | 'gone' | 'failed'> {
    const details = (await loadWebPush()).generateRequestDetails(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      JSON.stringify(payload),
      { vapidDetails: vapid, TTL: 24 * 3600, contentEncoding: 'aes128gcm' },
    );
    try {
      const response = await fetch(details.endpoint, {
        method: details.method,
        headers: details.headers as unknown as Record<string, string>,
        body: details.body ?? undefined,
        signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
      });
      if (response.status === 404 || response.status === 410) return 'gone';
      return response.ok ? 'sent' : 'failed';
    } catch {
      return 'failed';
    }
  }

  async function drainOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const now = clock.now();
      const due = await withTx(db, async (tx) => {
        const rows = await rowsOf<{ id: string }>(
          tx,
          sql`select id from ${notifications} where pushed_at is null and push_due_at <= ${now}
            order by push_due_at, id limit ${BATCH} for update skip locked`,
        );
        if (rows.length === 0) return [];
        return tx
          .update(notifications)
          .set({ pushedAt: now })
          .where(
            inArray(
              notifications.id,
              rows.map((row) => Number(row.id)),
            ),
          )
          .returning();
      });
      if (due.length === 0) return total;
      const customers = [...new Set(due.map((n) => n.customerId))];
      const devices = await db.select().from(pushSubscriptions).where(inArray(pushSubscriptions.customerId, customers));
      for (const notice of due) {
        const payload = { id: notice.id, title: notice.title, body: notice.body, link: notice.link };
        for (const device of devices.filter((d) => d.customerId === notice.customerId)) {
          const outcome = await sendOne(device, payload);
          if (outcome === 'gone') {
            await db
              .delete(pushSubscriptions)
              .where(and(eq(pushSubscriptions.id, device.id), eq(pushSubscriptions.endpoint, device.endpoint)));
          } else if (outcome === 'failed') {
            log.warn({ notice: notice.id, subscription: device.id }, 'web push failed');
          }
        }
      }
      total += due.length;
      // A short batch was every notice due: no transaction only to find none (later ones take the next drain).
      if (due.length < BATCH) return total;
    }
  }

  return {
    // One drain at a time per instance; a call during one runs once more after it.
    drain: coalesced(drainOnce),
  };
}
