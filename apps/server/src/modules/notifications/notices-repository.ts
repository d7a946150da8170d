import { NOTIFICATION_RULES, type PushSubscriptionBody } from '@ohgood/contract/notifications';
import { and, count, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import { notifications, pushDeliveries, pushSubscriptions } from '../../db/schema';
import { type Executor, rowsOf, type Tx } from '../../db/tx';

/** The SQL of a customer's notices and devices; the reads and actions beside it decide and shape. */

export type NoticeRow = typeof notifications.$inferSelect;

/** A page of the customer's notices, newest first, older than `before` when given. */
export function noticeRows(db: Executor, customerId: number, before: number | undefined, limit: number) {
  return db
    .select()
    .from(notifications)
    .where(
      and(eq(notifications.customerId, customerId), before === undefined ? undefined : lt(notifications.id, before)),
    )
    .orderBy(desc(notifications.id))
    .limit(limit);
}

export async function unreadCount(db: Executor, customerId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.customerId, customerId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/** Marks one of the customer's notices read (once: a second read keeps the first time); false if none. */
export async function markNoticeRead(db: Executor, customerId: number, id: number, at: Date): Promise<boolean> {
  const rows = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, ${at})` })
    .where(and(eq(notifications.id, id), eq(notifications.customerId, customerId)))
    .returning({ id: notifications.id });
  return rows.length > 0;
}

export async function markAllNoticesRead(db: Executor, customerId: number, at: Date): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: at })
    .where(and(eq(notifications.customerId, customerId), isNull(notifications.readAt)));
}

/**
 * Subscribes a device (one endpoint) for the customer, under the customer's lock the caller holds, and keeps
 * the newest `NOTIFICATION_RULES.pushDevicesMax` of theirs; resolves with how many older ones it removed.
 */
export async function saveDevice(
  tx: Tx,
  customerId: number,
  { endpoint, keys }: PushSubscriptionBody,
  at: Date,
): Promise<number> {
  // A device is one endpoint: signing in with another account on it moves the subscription there, and the
  // pushes still owed to the previous account stay with it (they are not sent to this one).
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
  // The ones subscribed longest ago give way (the newest is this one).
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
}

export async function deleteDevice(db: Executor, customerId: number, endpoint: string): Promise<void> {
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.customerId, customerId), eq(pushSubscriptions.endpoint, endpoint)));
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
