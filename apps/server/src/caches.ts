import { applyAnnounced, type CacheChanges, changesOf, viewersOfNotification } from './cache-changes';
import type { PgListener } from './db/pg-listener';
import type { PublicAnswer } from './http/public-cache';
import { CacheHome } from './lib/cache-home';
import type { GenuineToken } from './modules/auth/tokens';
import type { CommentRow } from './modules/shorts/comments-json';
import type { RankCursor, RankedPage } from './modules/shorts/ranking';
import type { KnownFacts } from './modules/shorts/viewer-state';

/** The canonical paths of the per-short public answers (only these are cached, so a change names their keys). */
export const publicShortPath = (id: number) => `/api/public/shorts/${id}`;
export const publicCommentsPath = (id: number) => `/api/public/shorts/feeds/${id}/comments`;

/** Every in-process cache of the app, declared in one place: capacity, lifetime and what drops it. */
/** How long anonymous answers live in process (each is also dropped by the changes it follows). */
export interface PublicLifetimes {
  /** One short and its comments (and the answers' shared-cache max-age). */
  publicMs: number;
  /** The anonymous feed's pages. */
  publicFeedMs: number;
}

function declareCaches(home: CacheHome, { publicMs: publicTtlMs, publicFeedMs }: PublicLifetimes) {
  return {
    /**
     * Anonymous feed answers by URL (page, size, keyword). A short's own change and the ranking's refresh drop
     * them; a reaction or comment does not, so under real traffic they stay served from here, and their counts
     * lag by at most the refresh (docs/rules/shorts.md#S19).
     */
    publicFeed: home.define<string, PublicAnswer>({
      name: 'public-feed',
      max: 5_000,
      ttlMs: publicFeedMs,
      droppedBy: { ranking: 'all' },
    }),
    /**
     * Anonymous search answers by URL (query, cursor, limit; docs/rules/shorts.md#S2). They list the anonymous
     * feed's items and follow the same changes: a short's own change, a creator's name and the ranking's
     * refresh drop them; a new short or a moved count shows within that refresh. A token bypasses them (a
     * signed-in search hides the creators its viewer blocked). Fewer entries than the feed: a search answer
     * holds a page of full descriptions, and the long tail of queries is looked for once.
     */
    publicSearch: home.define<string, PublicAnswer>({
      name: 'public-search',
      max: 2_000,
      ttlMs: publicFeedMs,
      droppedBy: { ranking: 'all' },
    }),
    /**
     * Search queries with more matches than one statement reads at once (ADR 0172), by their text: the next
     * time, such a query is read tier by tier straight away, without counting its matches again. A choice of
     * path, never an answer (both paths give the same page), so no change drops it; it ages out.
     */
    searchManyMatches: home.define<string, true>({
      name: 'search-many-matches',
      max: 10_000,
      ttlMs: 10 * 60_000,
      droppedBy: {},
    }),
    /** Anonymous single-short answers: that short's item changed. */
    publicShort: home.define<string, PublicAnswer>({
      name: 'public-short',
      max: 5_000,
      ttlMs: publicTtlMs,
      droppedBy: { counts: (ids) => ids.map(publicShortPath) },
    }),
    /** Anonymous comment lists: that short's comments changed. */
    publicComments: home.define<string, PublicAnswer>({
      name: 'public-comments',
      max: 5_000,
      ttlMs: publicTtlMs,
      droppedBy: { comments: (ids) => ids.map(publicCommentsPath) },
    }),
    /**
     * The ranking's pages (rows shared by every reader, personalised afterwards), by `size:page`: a count that
     * moved moves the order, and signed-in readers see their own reaction counted at once.
     */
    feedPages: home.define<string, RankedPage>({
      name: 'feed-pages',
      max: 10_000,
      ttlMs: publicTtlMs,
      droppedBy: { ranking: 'all', counts: 'all' },
    }),
    /** Where each ranked page ended (keyset paging behind page numbers), by `size:page`. */
    feedCursors: home.define<string, RankCursor>({
      name: 'feed-cursors',
      max: 10_000,
      droppedBy: { ranking: 'all', counts: 'all' },
    }),
    /** A playable short's comment rows (only `deletable` is per viewer), by short id. */
    commentRows: home.define<number, CommentRow[]>({
      name: 'comment-rows',
      max: 5_000,
      droppedBy: { comments: (ids) => ids },
    }),
    /** Per signed-in viewer: reactions and subscriptions looked up so far, by customer id. */
    viewerFacts: home.define<number, KnownFacts>({
      name: 'viewer-facts',
      max: 20_000,
      droppedBy: { viewers: (ids) => ids },
    }),
    /** Per signed-in viewer: the creators they blocked (docs/rules/shorts.md#S13), by customer id. */
    blockedCreators: home.define<number, ReadonlySet<number>>({
      name: 'blocked-creators',
      max: 20_000,
      droppedBy: { blocks: (ids) => ids },
    }),
    /**
     * What a customer token's text says once its signature was checked (ADR 0256), by the token's text. A
     * signature never changes, so no change drops it; only genuine tokens are kept (a forged or garbled one is
     * checked again each time), and expiry and revocation are judged on every request, never remembered.
     */
    genuineTokens: home.define<string, GenuineToken>({
      name: 'genuine-tokens',
      max: 20_000,
      droppedBy: {},
    }),
  };
}

export type AppCaches = ReturnType<typeof declareCaches>;

export interface AppCacheHome {
  home: CacheHome;
  caches: AppCaches;
  changes: CacheChanges;
  /** Settles once this instance hears the database's announcements; nothing may be served before. */
  listening: Promise<unknown>;
}

/**
 * The app's caches and the changes that drop them, hearing every instance's writes through the database
 * (`feed_changed`, `viewer_changed`, `blocks_changed`; migrations 0003, 0010, 0040, 0055). A reconnect after a
 * gap drops everything.
 */
export function createAppCaches(lifetimes: PublicLifetimes, notifications: PgListener): AppCacheHome {
  const home = new CacheHome();
  const caches = declareCaches(home, lifetimes);
  const changes = changesOf(home);
  const listening = Promise.all([
    notifications.subscribe('feed_changed', (payload) => applyAnnounced(changes, payload)),
    notifications.subscribe('viewer_changed', (payload) => changes.viewersChanged(viewersOfNotification(payload))),
    notifications.subscribe('blocks_changed', (payload) => changes.blocksChanged(viewersOfNotification(payload))),
  ]);
  return { home, caches, changes, listening };
}
