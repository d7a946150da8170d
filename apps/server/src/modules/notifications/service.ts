import { createPublicKey } from 'node:crypto';
import { kstDate, kstIso } from '@ohgood/contract/kst';
import {
  NOTIFICATION_RULES,
  type Notice,
  type NoticePage,
  type NotificationPreferences,
  type PushSubscriptionBody,
} from '@ohgood/contract/notifications';
import { and, count, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { lockCustomer } from '../../db/locks';
import { notifications, pushDeliveries, pushSubscriptions } from '../../db/schema';
import { type Executor, rowsOf, withTx } from '../../db/tx';
import { badRequest, notFound } from '../../lib/errors';
import { fromApi, readPreferences, savePreferences, toApi } from './preferences';

type Row = typeof notifications.$inferSelect;

/** A stored notice as the API shows it. */
export const noticeOf = (row: Row): Notice => ({
  id: row.id,
  kind: row.kind as Notice['kind'],
  category: row.category as Notice['category'],
  title: row.title,
  body: row.body,
  link: row.link,
  createdAt: kstIso(row.createdAt),
  read: row.readAt !== null,
});

export async function unreadCount(db: Executor, customerId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.customerId, customerId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

export interface NotificationService {
  list(customerId: number, before?: number): Promise<NoticePage>;
  unread(customerId: number): Promise<number>;
  markRead(customerId: number, id: number): Promise<number>;
  markAllRead(customerId: number): Promise<number>;
  preferences(customerId: number): Promise<NotificationPreferences>;
  savePreferences(customerId: number, prefs: NotificationPreferences): Promise<NotificationPreferences>;
  /** Resolves with how many older devices it replaced to keep `NOTIFICATION_RULES.pushDevicesMax`. */
  subscribe(customerId: number, subscription: PushSubscriptionBody): Promise<number>;
  unsubscribe(customerId: number, endpoint: string): Promise<void>;
}

/** The customer's own notices, preferences and devices (docs/rules/notifications.md#N7). */
export function createNotificationService(
  db: Db,
  clock: { now(): Date },
  push: PushEndpointRules,
): NotificationService {
  return {
    async list(customerId, before) {
      const size = NOTIFICATION_RULES.pageSize;
      const rows = await db
        .select()
        .from(notifications)
        .where(
          and(
            eq(notifications.customerId, customerId),
            before === undefined ? undefined : lt(notifications.id, before),
          ),
        )
        .orderBy(desc(notifications.id))
        .limit(size + 1);
      const items = rows.slice(0, size).map(noticeOf);
      return {
        items,
        nextCursor: rows.length > size ? (items.at(-1)?.id ?? null) : null,
        unread: await unreadCount(db, customerId),
        today: kstDate(clock.now()),
      };
    },
    unread: (customerId) => unreadCount(db, customerId),
    async markRead(customerId, id) {
      const [row] = await db
        .update(notifications)
        .set({ readAt: sql`coalesce(${notifications.readAt}, ${clock.now()})` })
        .where(and(eq(notifications.id, id), eq(notifications.customerId, customerId)))
        .returning({ id: notifications.id });
      // Someone else's notice looks exactly like a missing one.
      if (!row) throw notFound('NOTICE_NOT_FOUND', '알림을 찾을 수 없습니다.');
      return unreadCount(db, customerId);
    },
    async markAllRead(customerId) {
      await db
        .update(notifications)
        .set({ readAt: clock.now() })
        .where(and(eq(notifications.customerId, customerId), isNull(notifications.readAt)));
      return 0;
    },
    preferences: async (customerId) => toApi(await readPreferences(db, customerId)),
    async savePreferences(customerId, prefs) {
      await savePreferences(db, customerId, fromApi(prefs));
      return toApi(await readPreferences(db, customerId));
    },
    async subscribe(customerId, { endpoint, keys }) {
      if (!isAllowedPushEndpoint(endpoint, push)) {
        throw badRequest('PUSH_ENDPOINT_NOT_ALLOWED', '이 브라우저의 푸시 주소는 사용할 수 없습니다.');
      }
      if (!arePushKeysValid(keys)) {
        throw badRequest('PUSH_KEYS_INVALID', '이 브라우저의 푸시 키가 올바르지 않습니다. 알림을 다시 켜 주세요.');
      }
      const at = clock.now();
      return withTx(db, async (tx) => {
        // The customer's lock makes two devices subscribing at once count each other.
        await lockCustomer(tx, customerId);
        // A device is one endpoint: signing in with another account on it moves the subscription there, and
        // the pushes still owed to the previous account stay with it (they are not sent to this one).
        await tx.execute(sql`delete from ${pushDeliveries} where ${pushDeliveries.subscriptionId} in (
          select ${pushSubscriptions.id} from ${pushSubscriptions}
          where ${pushSubscriptions.endpoint} = ${endpoint} and ${pushSubscriptions.customerId} <> ${customerId})`);
        await tx
          .insert(pushSubscriptions)
          .values({ customerId, endpoint, p256dh: keys.p256dh, auth: keys.auth, createdAt: at })
          .onConflictDoUpdate({
            target: pushSubscriptions.endpoint,
            set: { customerId, p256dh: keys.p256dh, auth: keys.auth, createdAt: at },
          });
        // At most pushDevicesMax devices: the ones subscribed longest ago give way (the newest is this one).
        const replaced = await rowsOf<{ id: number }>(
          tx,
          sql`delete from ${pushSubscriptions} where ${pushSubscriptions.customerId} = ${customerId}
            and ${pushSubscriptions.id} not in (
              select ${pushSubscriptions.id} from ${pushSubscriptions} where ${pushSubscriptions.customerId} = ${customerId}
              order by ${pushSubscriptions.createdAt} desc, ${pushSubscriptions.id} desc
              limit ${NOTIFICATION_RULES.pushDevicesMax})
            returning ${pushSubscriptions.id}`,
        );
        return replaced.length;
      });
    },
    async unsubscribe(customerId, endpoint) {
      await db
        .delete(pushSubscriptions)
        .where(and(eq(pushSubscriptions.customerId, customerId), eq(pushSubscriptions.endpoint, endpoint)));
    },
  };
}

/** The daily prune's part (docs/rules/notifications.md#N8): notices older than the retention. */
export async function pruneOldNotices(db: Executor, at: Date): Promise<number> {
  const cutoff = new Date(at.getTime() - NOTIFICATION_RULES.retentionDays * 24 * 3_600_000);
  const deleted = await db
    .delete(notifications)
    .where(lt(notifications.createdAt, cutoff))
    .returning({ id: notifications.id });
  return deleted.length;
}

/** Where a device's push endpoint may point (config PUSH_HOSTS, PUSH_ALLOW_LOOPBACK). */
export interface PushEndpointRules {
  hosts: readonly string[];
  /** Tests only: `http:` or `https:` on any port of the loopback address. */
  allowLoopback: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * A push endpoint on one of the allowed push services (a host or its subdomain), over `https:` on port 443 and
 * without credentials: never a made-up address, another port of the push host, or plain HTTP.
 */
export function isAllowedPushEndpoint(endpoint: string, rules: PushEndpointRules): boolean {
  if (!URL.canParse(endpoint)) return false;
  const url = new URL(endpoint);
  const host = url.hostname.toLowerCase();
  if (url.username || url.password) return false;
  if (rules.allowLoopback && LOOPBACK.has(host)) return url.protocol === 'http:' || url.protocol === 'https:';
  // URL drops the scheme's default port, so https on 443 (written or not) has an empty port.
  if (url.protocol !== 'https:' || url.port !== '') return false;
  return rules.hosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const bytesOf = (text: string) => (BASE64URL.test(text) ? Buffer.from(text, 'base64url') : Buffer.alloc(0));

/**
 * The device's keys as RFC 8291 needs them: `p256dh` an uncompressed P-256 point (65 bytes, 0x04, on the
 * curve) and `auth` a 16-byte secret, both base64url. A key that is not one would make its encryption throw at
 * send time; it is refused here instead.
 */
export function arePushKeysValid(keys: { p256dh: string; auth: string }): boolean {
  const point = bytesOf(keys.p256dh);
  if (bytesOf(keys.auth).length !== 16 || point.length !== 65 || point[0] !== 0x04) return false;
  try {
    createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: point.subarray(1, 33).toString('base64url'),
        y: point.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    });
    return true;
  } catch {
    return false;
  }
}
