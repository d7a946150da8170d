import type { SearchItem, SearchPage, SearchQuery } from '@ohgood/contract/shorts-discovery';
import { isChoseongQuery } from '@ohgood/contract/shorts-discovery';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { customers, shorts } from '../../db/schema';
import { badRequest } from '../../lib/errors';

/** Escapes LIKE wildcards and the escape character itself, so '100%' and 'a_b' mean those texts. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * How a query is matched (domain §9): lower-cased substring of title + description (hashtags live in the
 * description) or the creator's nickname; a query of initial consonants only ('ㅋㅍ') is matched against
 * the stored initial-consonant columns instead. Both sides are served by pg_trgm GIN indexes.
 */
export function searchTerms(raw: string) {
  const q = raw.trim().toLowerCase();
  const choseong = isChoseongQuery(q);
  const tag = q.replace(/^#+/, '');
  return {
    q,
    choseong,
    grams: queryGrams(q),
    contains: `%${escapeLike(q)}%`,
    prefix: `${escapeLike(q)}%`,
    hashtag: `%#${escapeLike(tag)}%`,
  };
}

type Terms = ReturnType<typeof searchTerms>;

/**
 * The grams a matching text must contain, as a PostgreSQL array literal: the character itself for a
 * one-character query, else every adjacent pair (what `ohgood_grams` indexes; see migration 0004).
 */
function queryGrams(q: string): string {
  const chars = [...q];
  const grams = chars.length === 1 ? chars : chars.slice(1).map((c, i) => `${chars[i]}${c}`);
  return `{${[...new Set(grams)].map((g) => `"${g.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

/** The feed's `keyword` filter: the same match as search (issue 9), on a query joining shorts and customers. */
export function keywordFilter(keyword: string): SQL {
  const t = searchTerms(keyword);
  return t.choseong
    ? sql`((ohgood_grams(${shorts.searchChoseong}) @> ${t.grams}::text[] and ${shorts.searchChoseong} like ${t.contains} escape '\\') or ${customers.nicknameChoseong} like ${t.contains} escape '\\')`
    : sql`((ohgood_grams(${shorts.searchText}) @> ${t.grams}::text[] and ${shorts.searchText} like ${t.contains} escape '\\') or ${customers.nicknameSearch} like ${t.contains} escape '\\')`;
}

/**
 * Relevance from text only: title 5 (+2 when it starts with the query), hashtag 3, nickname 2, description 1.
 * No time and no live counters: a like or a new upload never moves an item across a page boundary, so
 * the (score, date, id) keyset is stable (ADR 0020).
 */
function scoreSql(t: Terms): SQL {
  if (t.choseong) {
    // search_choseong = choseong(title || ' ' || content), so the title is its first char_length(title) chars.
    const title = sql`left(s.search_choseong, char_length(s.title))`;
    const content = sql`substr(s.search_choseong, char_length(s.title) + 2)`;
    return sql`(case when ${title} like ${t.contains} escape '\\' then 5 else 0 end
      + case when ${title} like ${t.prefix} escape '\\' then 2 else 0 end
      + case when ${content} like ${t.hashtag} escape '\\' then 3 else 0 end
      + case when c.nickname_choseong like ${t.contains} escape '\\' then 2 else 0 end
      + case when ${content} like ${t.contains} escape '\\' then 1 else 0 end)`;
  }
  return sql`(case when lower(s.title) like ${t.contains} escape '\\' then 5 else 0 end
    + case when lower(s.title) like ${t.prefix} escape '\\' then 2 else 0 end
    + case when lower(s.content) like ${t.hashtag} escape '\\' then 3 else 0 end
    + case when c.nickname_search like ${t.contains} escape '\\' then 2 else 0 end
    + case when lower(s.content) like ${t.contains} escape '\\' then 1 else 0 end)`;
}

type Row = {
  id: number;
  title: string;
  content: string;
  video_key: string;
  thumbnail_key: string | null;
  like_count: number;
  comment_count: number;
  customer_id: number;
  nickname: string;
  profile_img: string | null;
  date_ms: number | string;
  score: number;
};

export function createSearchService(db: Db, mediaBaseUrl: string) {
  return {
    /** GET /api/public/shorts/search: keyset pages ordered by score, then date, then id (all descending). */
    async search(query: SearchQuery): Promise<SearchPage> {
      const empty: SearchPage = { items: [], nextCursor: null, hasNext: false, mediaBaseUrl };
      const t = searchTerms(query.q ?? '');
      if (!t.q) return empty;
      const textColumn = t.choseong ? sql.raw('search_choseong') : sql.raw('search_text');
      const nickColumn = t.choseong ? sql.raw('nickname_choseong') : sql.raw('nickname_search');
      let after = sql`true`;
      if (query.lastId !== undefined && query.lastDate !== undefined && query.lastScore !== undefined) {
        const lastDate = new Date(query.lastDate);
        if (Number.isNaN(lastDate.getTime())) throw badRequest('INVALID_CURSOR', '잘못된 커서입니다.');
        after = sql`(x.score, x.sort_date, x.id) < (${query.lastScore}::int, ${lastDate.toISOString()}::timestamptz, ${query.lastId}::int)`;
      }
      // Two index-served branches, disjoint so no dedup is needed: text matches (gram GIN index, then the
      // exact LIKE), and other shorts of creators whose nickname matches (creator index).
      const result = await db.execute(sql`
        select x.id, x.title, x.content, x.video_key, x.thumbnail_key, x.like_count, x.comment_count,
               x.customer_id, x.nickname, x.profile_img, x.score,
               (extract(epoch from x.sort_date) * 1000)::float8 as date_ms
          from (
            select s.id, s.title, s.content, s.video_key, s.thumbnail_key, s.like_count, s.comment_count,
                   s.customer_id, c.nickname, c.profile_img,
                   date_trunc('milliseconds', s.created_at) as sort_date,
                   ${scoreSql(t)}::int as score
              from (
                select * from shorts
                 where status = 'READY' and ohgood_grams(${textColumn}) @> ${t.grams}::text[]
                   and ${textColumn} like ${t.contains} escape '\\'
                union all
                select * from shorts
                 where status = 'READY'
                   and customer_id = any(array(select id from customers where ${nickColumn} like ${t.contains} escape '\\'))
                   and not (${textColumn} like ${t.contains} escape '\\')
              ) s
              join customers c on c.id = s.customer_id
          ) x
         where ${after}
         order by x.score desc, x.sort_date desc, x.id desc
         limit ${query.limit + 1}`);
      const rows = (result as unknown as { rows: Row[] }).rows;
      const page = rows.slice(0, query.limit).map(toItem);
      const hasNext = rows.length > query.limit;
      const last = page.at(-1);
      return {
        items: page,
        hasNext,
        nextCursor: hasNext && last ? { lastId: last.shortsId, lastDate: last.date, lastScore: last.score } : null,
        mediaBaseUrl,
      };
    },
  };
}

function toItem(row: Row): SearchItem {
  return {
    shortsId: row.id,
    videoName: row.video_key,
    thumbnail: row.thumbnail_key,
    shortsName: row.title,
    title: row.title,
    shortsExplain: row.content,
    content: row.content,
    date: new Date(Number(row.date_ms)).toISOString(),
    customerId: row.customer_id,
    customerNickname: row.nickname,
    nickname: row.nickname,
    profileImg: row.profile_img,
    commentCount: row.comment_count,
    likeCount: row.like_count,
    score: row.score,
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
