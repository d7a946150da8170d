import { kstDate, kstStartOfDay } from '@ohgood/contract/kst';
import { NOTIFICATION_RULES, type NoticeCategory, type NotificationPreferences } from '@ohgood/contract/notifications';
import { eq, inArray } from 'drizzle-orm';
import { notificationPreferences } from '../../db/schema';
import type { Executor } from '../../db/tx';

type Row = typeof notificationPreferences.$inferSelect;
export type Preferences = Omit<Row, 'customerId' | 'updatedAt'>;

/** What a customer who never opened the settings gets: everything on, quiet 21:00–08:00 KST. */
export const DEFAULT_PREFERENCES: Preferences = {
  billingPush: true,
  communityInApp: true,
  communityPush: true,
  benefitInApp: true,
  benefitPush: true,
  quietHours: true,
  quietStart: NOTIFICATION_RULES.quietStart,
  quietEnd: NOTIFICATION_RULES.quietEnd,
};

const DAY_MINUTES = 24 * 60;
const hhmm = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
const minuteOf = (text: string) => Number(text.slice(0, 2)) * 60 + Number(text.slice(3, 5));

export const toApi = (prefs: Preferences): NotificationPreferences => ({
  ...prefs,
  quietStart: hhmm(prefs.quietStart),
  quietEnd: hhmm(prefs.quietEnd),
});
export const fromApi = (body: NotificationPreferences): Preferences => ({
  ...body,
  quietStart: minuteOf(body.quietStart),
  quietEnd: minuteOf(body.quietEnd),
});

/** Each listed customer's preferences (the defaults for one without a row). */
export async function preferencesOf(db: Executor, customerIds: number[]): Promise<Map<number, Preferences>> {
  const ids = [...new Set(customerIds)];
  const rows = ids.length
    ? await db.select().from(notificationPreferences).where(inArray(notificationPreferences.customerId, ids))
    : [];
  const stored = new Map(rows.map(({ customerId, updatedAt: _, ...prefs }) => [customerId, prefs]));
  return new Map(ids.map((id) => [id, stored.get(id) ?? DEFAULT_PREFERENCES]));
}

export async function savePreferences(db: Executor, customerId: number, prefs: Preferences): Promise<void> {
  await db
    .insert(notificationPreferences)
    .values({ customerId, ...prefs })
    .onConflictDoUpdate({ target: notificationPreferences.customerId, set: { ...prefs, updatedAt: new Date() } });
}

export async function readPreferences(db: Executor, customerId: number): Promise<Preferences> {
  const [row] = await db
    .select()
    .from(notificationPreferences)
    .where(eq(notificationPreferences.customerId, customerId));
  if (!row) return DEFAULT_PREFERENCES;
  const { customerId: _, updatedAt: __, ...prefs } = row;
  return prefs;
}

/**
 * How a notice of `category` reaches the customer at `now` (docs/rules/notifications.md#N4): billing notices
 * are always in the center and pushed at once when billing push is on; community and benefit notices follow
 * their in-app and push switches, and their pushes in quiet hours wait until the quiet hours end (KST).
 * `pushAt` null means no push.
 */
export function deliveryOf(
  category: NoticeCategory,
  prefs: Preferences,
  now: Date,
): { inApp: boolean; pushAt: Date | null } {
  if (category === 'billing') return { inApp: true, pushAt: prefs.billingPush ? now : null };
  const inApp = category === 'community' ? prefs.communityInApp : prefs.benefitInApp;
  const push = inApp && (category === 'community' ? prefs.communityPush : prefs.benefitPush);
  if (!push) return { inApp, pushAt: null };
  return { inApp, pushAt: prefs.quietHours ? (quietEndAfter(prefs, now) ?? now) : now };
}

/** The instant the quiet hours around `now` end, or undefined when `now` is outside them (KST). */
export function quietEndAfter(prefs: Pick<Preferences, 'quietStart' | 'quietEnd'>, now: Date): Date | undefined {
  const today = kstDate(now);
  const dayStart = kstStartOfDay(today).getTime();
  const minute = Math.floor((now.getTime() - dayStart) / 60_000);
  const { quietStart: start, quietEnd: end } = prefs;
  if (start === end) return undefined;
  const quiet = start < end ? minute >= start && minute < end : minute >= start || minute < end;
  if (!quiet) return undefined;
  // Past midnight the end is today's; before midnight (an overnight window) it is tomorrow's.
  const endMinute = minute < end ? end : end + DAY_MINUTES;
  return new Date(dayStart + endMinute * 60_000);
}
