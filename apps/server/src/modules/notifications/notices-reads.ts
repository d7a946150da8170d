import { kstDate, kstIso } from '@ohgood/contract/kst';
import { NOTIFICATION_RULES, type Notice, type NoticePage } from '@ohgood/contract/notifications';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { type NoticeRow, noticeRows, unreadCount } from './notices-repository';
import { readPreferences, toApi } from './preferences';

/** A stored notice as the API shows it. */
export const noticeOf = (row: NoticeRow): Notice => ({
  id: row.id,
  kind: row.kind as Notice['kind'],
  category: row.category as Notice['category'],
  title: row.title,
  body: row.body,
  link: row.link,
  createdAt: kstIso(row.createdAt),
  read: row.readAt !== null,
});

/** What a customer reads of their notification center: pages of notices, the unread count, preferences. */
export function createNoticeReads(db: Db, clock: Pick<Clock, 'now'>) {
  return {
    async list(customerId: number, before?: number): Promise<NoticePage> {
      const size = NOTIFICATION_RULES.pageSize;
      const rows = await noticeRows(db, customerId, before, size + 1);
      const items = rows.slice(0, size).map(noticeOf);
      return {
        items,
        nextCursor: rows.length > size ? (items.at(-1)?.id ?? null) : null,
        unread: await unreadCount(db, customerId),
        today: kstDate(clock.now()),
      };
    },
    unread: (customerId: number) => unreadCount(db, customerId),
    preferences: async (customerId: number) => toApi(await readPreferences(db, customerId)),
  };
}
