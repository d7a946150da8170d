import type { Notice } from '@ohgood/contract/notifications';
import { and, asc, desc, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { PgListener } from '../../db/pg-listener';
import { notifications } from '../../db/schema';
import { noticeOf } from './notices-reads';
import { unreadCount } from './notices-repository';

/** What a stream receives: a new notice with the unread count after it. */
export type NoticeListener = (notice: Notice, unread: number) => void;

interface Watcher {
  /** The newest notice id this watcher has (its `Last-Event-ID`). */
  cursor: number;
  listener: NoticeListener;
}

const RESUME_LIMIT = 50;

/**
 * Live notices for open streams (docs/rules/notifications.md#N7). One LISTEN channel for the instance
 * (`notice_created`, payload: the customer id, sent by the table's trigger from whichever instance wrote the
 * notice); per customer, one read per notification for all of that customer's open streams on this instance,
 * and none for customers without a stream, so an idle stream costs no query.
 */
export function createLiveNotices(db: Db, listen: PgListener) {
  const watchers = new Map<number, Set<Watcher>>();
  const reading = new Map<number, Promise<void>>();

  async function deliver(customerId: number): Promise<void> {
    const set = watchers.get(customerId);
    if (!set || set.size === 0) return;
    const from = Math.min(...[...set].map((w) => w.cursor));
    const rows = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.customerId, customerId), gt(notifications.id, from)))
      .orderBy(asc(notifications.id))
      .limit(RESUME_LIMIT);
    if (rows.length === 0) return;
    const unread = await unreadCount(db, customerId);
    for (const watcher of set) {
      for (const row of rows) {
        if (row.id <= watcher.cursor) continue;
        watcher.cursor = row.id;
        watcher.listener(noticeOf(row), unread);
      }
    }
  }

  /** Reads for a customer one at a time; a notification during a read reads once more after it. */
  function schedule(customerId: number): void {
    const previous = reading.get(customerId) ?? Promise.resolve();
    const next = previous.then(() => deliver(customerId)).catch(() => undefined);
    reading.set(customerId, next);
    void next.then(() => {
      if (reading.get(customerId) === next) reading.delete(customerId);
    });
  }

  const ready = listen.subscribe('notice_created', (payload) => {
    // '*': the listener reconnected and may have missed some: every watched customer reads once.
    if (payload === '*') for (const id of watchers.keys()) schedule(id);
    else if (watchers.has(Number(payload))) schedule(Number(payload));
  });

  return {
    /**
     * Watches a customer's new notices from `lastEventId` on (a resumed stream first gets what it missed),
     * or from now when absent. Listening starts before the read, so nothing falls between. Returns the
     * unread count and a stop function.
     */
    async watch(
      customerId: number,
      lastEventId: number | undefined,
      listener: NoticeListener,
    ): Promise<{ unread: number; stop: () => void }> {
      await ready;
      const watcher: Watcher = { cursor: Number.MAX_SAFE_INTEGER, listener };
      let set = watchers.get(customerId);
      if (!set) {
        set = new Set();
        watchers.set(customerId, set);
      }
      set.add(watcher);
      const stop = () => {
        set.delete(watcher);
        if (set.size === 0 && watchers.get(customerId) === set) watchers.delete(customerId);
      };
      if (lastEventId !== undefined) {
        watcher.cursor = lastEventId;
        schedule(customerId);
      } else {
        const [newest] = await db
          .select({ id: notifications.id })
          .from(notifications)
          .where(eq(notifications.customerId, customerId))
          .orderBy(desc(notifications.id))
          .limit(1);
        watcher.cursor = newest?.id ?? 0;
        // A notice written between listening and this read is now past the cursor: read once to be sure.
        schedule(customerId);
      }
      return { unread: await unreadCount(db, customerId), stop };
    },
  };
}
export type LiveNotices = ReturnType<typeof createLiveNotices>;
