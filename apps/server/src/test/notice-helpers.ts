import { kstStartOfDay } from '@ohgood/contract/kst';
import { asc, eq } from 'drizzle-orm';
import { notifications } from '../db/schema';
import type { Harness } from './harness';

/** The instant `hh:mm` KST on `date`. */
export const kstAt = (date: string, hh = 12, mm = 0) =>
  new Date(kstStartOfDay(date).getTime() + (hh * 60 + mm) * 60_000);

/** Dispatches every recorded event on this instance and returns the customer's notices, oldest first. */
export async function noticesAfterDispatch(h: Harness, customerId: number) {
  await h.app.relay.drain();
  return h.database.db
    .select()
    .from(notifications)
    .where(eq(notifications.customerId, customerId))
    .orderBy(asc(notifications.id));
}

/** The kinds of a customer's notices, oldest first. */
export async function noticeKinds(h: Harness, customerId: number): Promise<string[]> {
  return (await noticesAfterDispatch(h, customerId)).map((n) => n.kind);
}
