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
import { notifications, pushSubscriptions } from '../../db/schema';
import type { Executor } from '../../db/tx';
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
  subscribe(customerId: number, subscription: PushSubscriptionBody): Promise<void>;
  unsubscribe(customerId: number, endpoint: string): Promise<void>;
}

/** The customer's own notices, preferences and devices (docs/rules/notifications.md#N7). */
export function createNotificationService(
  db: Db,
  clock: { now(): Date },
  pushHosts: readonly string[],
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
      if (!isAllowedPushEndpoint(endpoint, pushHosts)) {
        throw badRequest('PUSH_ENDPOINT_NOT_ALLOWED', '이 브라우저의 푸시 주소는 사용할 수 없습니다.');
      }
      // A device is one endpoint: signing in with another account on it moves the subscription there.
      await db
        .insert(pushSubscriptions)
        .values({ customerId, endpoint, p256dh: keys.p256dh, auth: keys.auth })
        .onConflictDoUpdate({
          target: pushSubscriptions.endpoint,
          set: { customerId, p256dh: keys.p256dh, auth: keys.auth },
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

/** A push endpoint on one of the allowed push services (a host or its subdomain); never a made-up address. */
export function isAllowedPushEndpoint(endpoint: string, hosts: readonly string[]): boolean {
  const host = URL.canParse(endpoint) ? new URL(endpoint).hostname.toLowerCase() : '';
  return hosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
}
