import type {
  ChannelItem,
  ChannelPage,
  ListQuery,
  Overview,
  VideoItem,
  VideoPage,
} from '@ohgood/contract/shorts-discovery';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { customers } from '../../db/schema';
import { rowsOf } from '../../db/tx';
import { notFound } from '../../lib/errors';
import { notBlockedSql } from '../safety/service';
import { decodeCursor, encodeCursor, type Keyset } from './cursor';

type VideoRow = {
  id: number;
  thumbnail_key: string | null;
  title: string;
  content: string;
  like_count: number;
  comment_count: number;
  context: string | null;
  at: number | string;
  key_id: number;
};
type ChannelRow = { id: number; nickname: string; profile_img: string | null; at: number | string };

/** Keyset instants are compared at millisecond precision, the precision the cursor carries. */
const ms = (column: string) => sql.raw(`date_trunc('milliseconds', ${column})`);
const epochMs = (column: string) =>
  sql.raw(`(extract(epoch from date_trunc('milliseconds', ${column})) * 1000)::float8`);

function video(row: VideoRow): VideoItem {
  return {
    videoId: row.id,
    shortsId: row.id,
    thumbnailUrl: row.thumbnail_key,
    title: row.title,
    content: row.content,
    likeCount: row.like_count,
    commentCount: row.comment_count,
    context: row.context,
  };
}

/** The shorts my page: who I subscribe to, what I liked, what I commented on. */
export function createShortsMypageService(db: Db, mediaBaseUrl: string) {
  const rows = <T>(query: SQL): Promise<T[]> => rowsOf<T>(db, query);

  function paged<R, I>(found: R[], limit: number, map: (row: R) => I, key: (row: R) => Keyset) {
    const page = found.slice(0, limit);
    const hasNext = found.length > limit;
    const last = page.at(-1);
    return {
      items: page.map(map),
      hasNext,
      nextCursor: hasNext && last ? encodeCursor(key(last)) : null,
      mediaBaseUrl,
    };
  }

  const after = (cursor: Keyset | null, instant: string, id: string) =>
    cursor
      ? sql`(${ms(instant)}, ${sql.raw(id)}) < (${new Date(cursor.at).toISOString()}::timestamptz, ${cursor.id}::int)`
      : sql`true`;

  return {
    /** Channels I subscribe to, most recently subscribed first. */
    async subscriptions(customer: number, query: ListQuery): Promise<ChannelPage> {
      const cursor = decodeCursor(query.cursor);
      const found = await rows<ChannelRow>(sql`
        select c.id, c.nickname, c.profile_img, ${epochMs('sub.created_at')} as at
          from short_subscriptions sub join customers c on c.id = sub.target_id
         where sub.subscriber_id = ${customer} and ${after(cursor, 'sub.created_at', 'sub.target_id')}
         order by ${ms('sub.created_at')} desc, sub.target_id desc
         limit ${query.limit + 1}`);
      return paged(
        found,
        query.limit,
        (r): ChannelItem => ({ userId: r.id, avatarUrl: r.profile_img, displayName: r.nickname }),
        (r) => ({ at: Number(r.at), id: r.id }),
      );
    },

    /** Playable shorts I like, most recently liked first. */
    async liked(customer: number, query: ListQuery): Promise<VideoPage> {
      const cursor = decodeCursor(query.cursor);
      const found = await rows<VideoRow>(sql`
        select s.id, s.thumbnail_key, s.title, s.content, s.like_count, s.comment_count, null as context,
               ${epochMs('r.created_at')} as at, s.id as key_id
          from short_reactions r join shorts s on s.id = r.short_id
         where r.customer_id = ${customer} and r.type = 'like' and s.status = 'READY'
           and ${notBlockedSql(customer, sql`s.customer_id`)}
           and ${after(cursor, 'r.created_at', 'r.short_id')}
         order by ${ms('r.created_at')} desc, r.short_id desc
         limit ${query.limit + 1}`);
      return paged(found, query.limit, video, (r) => ({ at: Number(r.at), id: r.key_id }));
    },

    /**
     * Shorts I commented on, one item per short (deduplicated), ordered by my latest visible comment there,
     * which is also the item's `context`. Comment ids grow with time, so the latest id is the keyset.
     */
    async commented(customer: number, query: ListQuery): Promise<VideoPage> {
      const cursor = decodeCursor(query.cursor);
      const found = await rows<VideoRow>(sql`
        with latest as (
          select cm.short_id, max(cm.id) as last_id
            from short_comments cm join shorts s on s.id = cm.short_id
           where cm.customer_id = ${customer} and cm.deleted_at is null and cm.hidden_at is null
             and s.status = 'READY' and ${notBlockedSql(customer, sql`s.customer_id`)}
           group by cm.short_id
          having ${cursor ? sql`max(cm.id) < ${cursor.id}::int` : sql`true`}
           order by last_id desc
           limit ${query.limit + 1}
        )
        select s.id, s.thumbnail_key, s.title, s.content, s.like_count, s.comment_count, cm.content as context,
               0::float8 as at, l.last_id as key_id
          from latest l join shorts s on s.id = l.short_id join short_comments cm on cm.id = l.last_id
         order by l.last_id desc`);
      return paged(found, query.limit, video, (r) => ({ at: 0, id: r.key_id }));
    },

    async overview(customer: number, limit: number): Promise<Overview> {
      const [me] = await db
        .select({ id: customers.id, nickname: customers.nickname, img: customers.profileImg })
        .from(customers)
        .where(eq(customers.id, customer));
      if (!me) throw notFound('CUSTOMER_NOT_FOUND', '사용자를 찾을 수 없습니다.');
      const [subscriptions, likedVideos, commentedVideos] = await Promise.all([
        this.subscriptions(customer, { limit }),
        this.liked(customer, { limit }),
        this.commented(customer, { limit }),
      ]);
      const strip = <T extends { items: unknown[]; hasNext: boolean }>(p: T) => ({
        items: p.items,
        hasNext: p.hasNext,
      });
      return {
        header: { userId: me.id, displayName: me.nickname, avatarUrl: me.img },
        subscriptions: strip(subscriptions) as Overview['subscriptions'],
        likedVideos: strip(likedVideos) as Overview['likedVideos'],
        commentedVideos: strip(commentedVideos) as Overview['commentedVideos'],
        mediaBaseUrl,
      };
    },
  };
}

export type ShortsMypageService = ReturnType<typeof createShortsMypageService>;
