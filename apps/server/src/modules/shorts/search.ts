import type { SearchItem, SearchPage, SearchQuery } from '@ohgood/contract/shorts-discovery';
import { isChoseongQuery } from '@ohgood/contract/shorts-discovery-rules';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { PLAN_PER_VALUE } from '../../db/named-statements';
import { customers, shorts } from '../../db/schema';
import { rowsOf } from '../../db/tx';
import type { Cache } from '../../lib/cache-home';
import { badRequest } from '../../lib/errors';
import { notBlockedSql } from '../safety/service';

/** Escapes LIKE wildcards and the escape character itself, so '100%' and 'a_b' mean those texts. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * How a query is matched (docs/rules/shorts.md#S2): lower-cased substring of title + description (hashtags live in the
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
    hashtag: `%#${escapeLike(tag)}%`,
    hashtagGrams: queryGrams(`#${tag}`),
    // '#x' in a description is a hashtag that starts with x, when x holds no space or '#': such a query is
    // looked up among the hashtags themselves (migration 0051), newest first.
    hashtagPrefix: !choseong && /^[^\s#]+$/u.test(tag) ? `${escapeLike(tag)}%` : null,
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

/** The feed's `keyword` filter: the same match as search, on a query joining shorts and customers. */
export function keywordFilter(keyword: string): SQL {
  const t = searchTerms(keyword);
  return t.choseong
    ? sql`((ohgood_grams(${shorts.searchChoseong}) @> ${t.grams}::text[] and ${shorts.searchChoseong} like ${t.contains} escape '\\') or ${customers.nicknameChoseong} like ${t.contains} escape '\\')`
    : sql`((ohgood_grams(${shorts.searchText}) @> ${t.grams}::text[] and ${shorts.searchText} like ${t.contains} escape '\\') or ${customers.nicknameSearch} like ${t.contains} escape '\\')`;
}

/**
 * Relevance tiers from text only (ADR 0020): 3 = the title matches, 2 = a hashtag or the creator's nickname
 * matches, 1 = anything else in the description. No time and no live counters, so a like or a new upload
 * never moves an item across a page boundary and the (tier, date, id) keyset is stable. Each tier is read
 * newest first by its own query, so a broad query stops after a page's worth of rows (date index) and a
 * narrow one is served by the gram index: neither scores every match.
 */
function tierConditions(t: Terms, creators: number[]) {
  const column = t.choseong ? sql.raw('s.search_choseong') : sql.raw('s.search_text');
  // The title is the first char_length(title) characters of the derived column (title || ' ' || content).
  const title = sql`left(${column}, char_length(s.title))`;
  // The same title as its own gram index derives it (migration 0049): a word common in descriptions but
  // rare in titles is then narrowed by the titles alone.
  const indexedTitle = t.choseong ? sql.raw('ohgood_choseong(s.title)') : sql.raw('lower(s.title)');
  const content = sql`substr(${column}, char_length(s.title) + 2)`;
  // The text conditions, written for an index-served statement (`indexed`) or for the newest-shorts look.
  const textConditions = (indexed: boolean) => {
    const like = likeIn(indexed);
    return { inTitle: like(title, t.contains), byTag: like(content, t.hashtag), anywhere: like(column, t.contains) };
  };
  // Creators whose nickname matches, looked up first: with literal ids the planner sees how few they are.
  const byNick = creators.length > 0 ? sql`s.customer_id = any(${`{${creators.join(',')}}`}::int[])` : sql`false`;
  // Without the escape clause: the newest-shorts look and the pg_trgm branch; with it: beside the gram indexes.
  const unescaped = textConditions(false);
  const escaped = textConditions(true);
  const { inTitle, byTag } = escaped;
  // Tier 1: somewhere in the description, and neither in the title nor a hashtag nor the creator's nickname.
  const descriptionOnly = (c: typeof escaped) =>
    sql`${c.anywhere} and not ${c.inTitle} and not (${c.byTag} or ${byNick})`;
  // Each gram condition narrows through its GIN index only. It never appears under OR or NOT, where the
  // planner would evaluate it row by row. A hashtag's grams include the '#', which few texts pair with
  // the tag's first letter.
  const grams = sql`ohgood_grams(${column}) @> ${t.grams}::text[]`;
  const titleGrams = sql`ohgood_grams(${indexedTitle}) @> ${t.grams}::text[]`;
  const tagGrams = sql`ohgood_grams(${column}) @> ${t.hashtagGrams}::text[]`;
  // pg_trgm's index serves a pattern of three letters and more, and rechecks a row by its LIKE alone; the gram
  // index serves shorter ones, but rechecks by computing the text's grams, ~0.1 ms a row: 0.8-1.2 s for the
  // 7,400 descriptions holding '설명 12' at a million shorts, against 18 ms through pg_trgm.
  const trigrams = [...t.q].length >= 3;
  /** The newest `limit` shorts matching `condition` below `after`, through the gram indexes. */
  const byGrams =
    (condition: SQL): Branch =>
    (after, limit) =>
      sql`select s.* from shorts s where s.status = 'READY' and ${condition} and ${after}
           order by s.created_at desc, s.id desc limit ${limit}`;
  // Every match read through pg_trgm, then sorted. The fence (`offset 0`) keeps the planner from walking the
  // date index instead, betting on an early stop that a rare pattern never gives (920 ms for none found).
  const byTrigrams =
    (condition: SQL): Branch =>
    (after, limit) =>
      sql`select s.* from (select s.* from shorts s where s.status = 'READY' and ${condition} and ${after} offset 0) s
           order by s.created_at desc, s.id desc limit ${limit}`;
  // The hashtag's entries sorted by date from their own index (a few thousand index rows at most), then each
  // short looked up in that order until the page is full: no short is read only to be sorted. The lateral
  // join keeps the planner from joining every entry before the sort.
  const byHashtag =
    (prefix: string): Branch =>
    (after, limit) =>
      sql`select s.* from (select distinct h.created_at, h.short_id from short_hashtags h
                             where h.tag like ${prefix} escape '\\'
                             order by h.created_at desc, h.short_id desc) h
            cross join lateral (select s.* from shorts s
                                 where s.id = h.short_id and s.status = 'READY' and ${byTag} and not ${inTitle}
                                   and ${after}) s
           order by h.created_at desc, h.short_id desc limit ${limit}`;
  return {
    /**
     * Each row's tier, for rows that match somewhere (in the text or by the creator's name); the same
     * conditions as `plain`, asked in tier order.
     */
    tierOf: sql`case when ${unescaped.inTitle} then 3 when ${unescaped.byTag} or ${byNick} then 2 else 1 end`,
    /** The text matches anywhere: unescaped, so pg_trgm's index serves it (three letters and more). */
    anywhere: unescaped.anywhere,
    /** The creator is one the query names. */
    byNick,
    /** One condition per tier, for a scan of the newest rows. */
    plain: {
      3: unescaped.inTitle,
      2: sql`(${unescaped.byTag} or ${byNick}) and not ${unescaped.inTitle}`,
      1: descriptionOnly(unescaped),
    } as Record<Tier, SQL>,
    /** Disjoint, index-served branches per tier. */
    indexed: {
      3: [byGrams(sql`${titleGrams} and ${inTitle}`)],
      2: [
        t.hashtagPrefix ? byHashtag(t.hashtagPrefix) : byGrams(sql`${tagGrams} and ${byTag} and not ${inTitle}`),
        ...(creators.length > 0 ? [byGrams(sql`${byNick} and not ${byTag} and not ${inTitle}`)] : []),
      ],
      1: [trigrams ? byTrigrams(descriptionOnly(unescaped)) : byGrams(sql`${grams} and ${descriptionOnly(escaped)}`)],
    } as Record<Tier, Branch[]>,
  };
}

type Tier = 1 | 2 | 3;

/**
 * `text like pattern` (patterns from `escapeLike`; the backslash is also PostgreSQL's default escape). Beside
 * a gram index a statement names the escape: `like_escape()` then keeps the pattern away from the pg_trgm
 * indexes, whose bitmap the planner would AND with the gram index's and then recheck ohgood_grams on every
 * row (1.2 s for 7,400 rows at a million shorts). Without it where pg_trgm is meant to serve the pattern,
 * and in the newest-shorts look, which runs on a cached generic plan: there the clause would call
 * like_escape() again for every row it filters (ADR 0160).
 */
const likeIn =
  (indexed: boolean) =>
  (text: SQL, pattern: string): SQL =>
    indexed ? sql`(${text} like ${pattern} escape '\\')` : sql`(${text} like ${pattern})`;

/** One index-served branch of a tier: its newest `limit` shorts (`s.*`) below `after`, newest first. */
type Branch = (after: SQL, limit: number) => SQL;

/**
 * A query that is a hashtag's text ('#벤치7', no space) has no tier 1: found in the title it is tier 3, and
 * anywhere in the description it is a hashtag (tier 2). With a space it can span the title's end and the
 * description's start, which is tier 1.
 */
function lowestTier(t: Terms): Tier {
  return t.q.startsWith('#') && !t.q.includes(' ') ? 2 : 1;
}

/** The score of a browse item (an empty query): below every text tier, so its cursor is told apart. */
const BROWSE_SCORE = 0;

/** How many of the newest shorts a tier looks at first, before asking the indexes. */
const WINDOW = 2000;

/**
 * Up to how many matches a query of three letters and more is read in one statement, every tier at once
 * (`fewMatches`), when the newest shorts did not fill its page. More than this, and the tiers are read one
 * by one through their indexes, each stopping at a page.
 */
const FEW = 100;

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
};

export function createSearchService(
  db: Db,
  mediaBaseUrl: string,
  /**
   * `window: 0` skips the newest-shorts look, so tests read every tier through its indexes; `few: 0` never
   * reads a query's matches at once; `manyMatches` remembers the queries that had more than `few`.
   */
  {
    window = WINDOW,
    few = FEW,
    manyMatches,
  }: { window?: number; few?: number; manyMatches?: Cache<string, true> } = {},
) {
  const columns = sql`s.id, s.title, s.content, s.video_key, s.thumbnail_key, s.like_count, s.comment_count,
    s.customer_id, c.nickname, c.profile_img, (extract(epoch from s.created_at) * 1000)::float8 as date_ms`;

  // A statement that asks an index for a pattern is planned for its own words: how many rows a pattern
  // matches decides the plan.
  const rows = <R = Row>(query: SQL): Promise<R[]> => rowsOf<R>(db, sql`${sql.raw(PLAN_PER_VALUE)} ${query}`);
  // The newest-shorts look has one plan whatever the words (the date index, a filter, an early stop): it is a
  // named statement, planned once per connection instead of on every search (0.3-0.6 ms each).
  const newestLimit = sql.raw(String(Math.trunc(window)));

  /**
   * The newest `limit` rows of one tier below the cursor among the newest `window` shorts (date index, cheap
   * filter, early stop): exact whenever it fills `limit`, which a broad query's does. Otherwise the tier is
   * read through its indexes (`indexedRows`), which find every match and sort only those, or, for a rare
   * query, every tier at once (`fewMatches`).
   */
  function newestRows(t: Terms, creators: number[], level: Tier, after: SQL, limit: number): Promise<Row[]> {
    return rowsOf<Row>(
      db,
      sql`
      select ${columns}
        from (select s.* from shorts s where s.status = 'READY' and ${after}
               order by s.created_at desc, s.id desc limit ${newestLimit}) s
        join customers c on c.id = s.customer_id
       where ${tierConditions(t, creators).plain[level]}
       order by s.created_at desc, s.id desc
       limit ${limit}`,
    );
  }

  /** One tier's newest `limit` rows through its indexes. */
  function indexedRows(t: Terms, creators: number[], level: Tier, after: SQL, limit: number): Promise<Row[]> {
    const conditions = tierConditions(t, creators);
    // Each branch sorts its matches before joining the creator: a broad one joins a page, not every match.
    const branches = conditions.indexed[level].map(
      (branch) => sql`(select ${columns} from (${branch(after, limit)}) s join customers c on c.id = s.customer_id)`,
    );
    return rows(sql`select * from (${sql.join(branches, sql` union all `)}) hits
      order by date_ms desc, id desc limit ${limit}`);
  }

  /**
   * Every tier's matches below the cursor in one statement, when there are at most `few` of them: the text
   * anywhere through pg_trgm's index, and the shorts of the creators named. A query whose newest shorts do not
   * fill a page is usually rare, and each tier's own look at the newest shorts and its indexes cost several
   * milliseconds whether or not they find anything. Null when there are more (then the tiers are read one by
   * one, as a broad query's must be).
   */
  async function fewMatches(
    t: Terms,
    creators: number[],
    cursor: { tier: Tier; after: SQL },
    visible: SQL,
    limit: number,
  ): Promise<Array<Row & { tier: Tier }> | null> {
    const { tierOf, anywhere, byNick } = tierConditions(t, creators);
    // Below the cursor: a lower tier, or the cursor's tier past its date and id (`after` is true on page 1).
    const below = sql`(s.tier < ${cursor.tier} or (s.tier = ${cursor.tier} and ${cursor.after}))`;
    // Each branch stops after one more than `few` (the fence keeps pg_trgm's index for the text, not a walk
    // of the date index betting on an early stop). One row comes back even when the page is empty, so the
    // count of matches always does; past `few` the page is not read (a one-time filter on the count).
    const found = await rows<Partial<Row & { tier: Tier }> & { matched: number }>(sql`
      with hits as (
        select id from (
          (select s.id from (select s.id from shorts s where s.status = 'READY' and ${anywhere} and ${visible}
                              offset 0) s
            limit ${few + 1})
          union
          (select s.id from shorts s where s.status = 'READY' and ${byNick} and ${visible} limit ${few + 1})) u
        limit ${few + 1})
      select m.matched, page.*
        from (select count(*)::int as matched from hits) m
        left join lateral (
          select ${columns}, s.tier
            from (select s.*, ${tierOf} as tier from shorts s join hits h on h.id = s.id) s
            join customers c on c.id = s.customer_id
           where m.matched <= ${few} and ${below}
           order by s.tier desc, s.created_at desc, s.id desc
           limit ${limit}) page on true`);
    if ((found[0]?.matched ?? 0) > few) return null;
    return found.filter((row): row is Row & { tier: Tier; matched: number } => row.id != null);
  }

  /**
   * The page of a query with few matches, read at once; null (and the query remembered) when it has more, or
   * names more creators than that: their shorts alone are too many ('벤치러' names 1,000).
   */
  async function pageAtOnce(
    t: Terms,
    creators: number[],
    cursor: { tier: Tier; after: SQL },
    visible: SQL,
    limit: number,
  ): Promise<SearchPage | null> {
    const all = creators.length <= few ? await fewMatches(t, creators, cursor, visible, limit + 1) : null;
    if (all)
      return pageOf(
        all.map((row) => toItem(row, row.tier)),
        limit,
      );
    manyMatches?.set(t.q, true);
    return null;
  }

  /**
   * Whether `fewMatches` may serve the query: pg_trgm's index needs three letters. A query for a hashtag
   * ('#x') reads its tags from their own table (`short_hashtags`), newest first; pg_trgm's look for '#x'
   * anywhere in the text costs more than that at a million shorts (`#벤치7`: 9 ms read by tiers, 36-39 ms
   * with the look first). A query known to have more is not counted again.
   */
  const mayBeFew = (t: Terms) =>
    few > 0 && [...t.q].length >= 3 && !t.q.startsWith('#') && manyMatches?.get(t.q) === undefined;

  /**
   * The creators whose nickname matches. pg_trgm's index serves three letters and more; a shorter query
   * goes through the nickname's grams (migration 0049) instead. Never both: a bitmap of the two rechecks
   * every row with ohgood_grams, which cost 95 ms for 1,000 nicknames.
   */
  async function creatorsNamed(t: Terms): Promise<number[]> {
    const nick = t.choseong ? sql.raw('nickname_choseong') : sql.raw('nickname_search');
    const short = [...t.q].length < 3;
    const found = await rows<{ id: number }>(
      sql`select id from customers
           where ${short ? sql`ohgood_grams(${nick}) @> ${t.grams}::text[] and ` : sql``}${nick} like ${t.contains} escape '\\'
           limit 1000`,
    );
    return found.map((r) => r.id);
  }

  /** An empty query browses: the newest playable shorts below the cursor, as score-0 items. */
  async function newest(after: SQL, limit: number): Promise<SearchItem[]> {
    const found = await rows(sql`select ${columns} from shorts s join customers c on c.id = s.customer_id
      where s.status = 'READY' and ${after} order by s.created_at desc, s.id desc limit ${limit}`);
    return found.map((row) => toItem(row, BROWSE_SCORE));
  }

  /** The first `limit` of `found` (which holds one more when there is a next page) and the cursor after them. */
  function pageOf(found: SearchItem[], limit: number): SearchPage {
    const page = found.slice(0, limit);
    const hasNext = found.length > limit;
    const last = page.at(-1);
    return {
      items: page,
      hasNext,
      nextCursor: hasNext && last ? { lastId: last.shortsId, lastDate: last.date, lastScore: last.score } : null,
      mediaBaseUrl,
    };
  }

  return {
    /**
     * GET /api/public/shorts/search: keyset pages ordered by tier, then date, then id (all descending); an
     * empty query gives the newest shorts (a browse grid), by date then id. A signed-in searcher never finds
     * the creators they blocked (docs/rules/shorts.md#S13).
     */
    async search(query: SearchQuery, viewer: number | null = null): Promise<SearchPage> {
      const t = searchTerms(query.q ?? '');
      const browsing = !t.q;
      let tier: Tier = 3;
      let after = sql`true`;
      if (query.lastId !== undefined && query.lastDate !== undefined && query.lastScore !== undefined) {
        const lastDate = new Date(query.lastDate);
        const validTier = browsing ? query.lastScore === BROWSE_SCORE : query.lastScore >= 1 && query.lastScore <= 3;
        if (Number.isNaN(lastDate.getTime()) || !validTier) {
          throw badRequest('INVALID_CURSOR', '잘못된 커서입니다.');
        }
        tier = query.lastScore as Tier;
        after = sql`(s.created_at, s.id) < (${lastDate.toISOString()}::timestamptz, ${query.lastId}::int)`;
      }
      const visible = notBlockedSql(viewer, sql`s.customer_id`);
      if (browsing) return pageOf(await newest(sql`${after} and ${visible}`, query.limit + 1), query.limit);
      const found: SearchItem[] = [];
      let creators: number[] | null = null;
      for (let level = tier; level >= lowestTier(t) && found.length <= query.limit; level--) {
        // Only the lower tiers ask who the query names: a page filled by titles never looks.
        if (level < 3) creators ??= await creatorsNamed(t);
        const levelAfter = sql`${level === tier ? after : sql`true`} and ${visible}`;
        const wanted = query.limit + 1 - found.length;
        let more = await newestRows(t, creators ?? [], level, levelAfter, wanted);
        if (more.length < wanted && level === tier && mayBeFew(t)) {
          // Not filled by the newest shorts: perhaps a rare query, whose every match one statement reads.
          creators ??= await creatorsNamed(t);
          const page = await pageAtOnce(t, creators, { tier, after }, visible, query.limit);
          if (page) return page;
        }
        if (more.length < wanted) more = await indexedRows(t, creators ?? [], level, levelAfter, wanted);
        found.push(...more.map((row) => toItem(row, level)));
      }
      return pageOf(found, query.limit);
    },
  };
}

function toItem(row: Row, score: number): SearchItem {
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
    score,
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
