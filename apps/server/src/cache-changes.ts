import { sql } from 'drizzle-orm';
import type { Db } from './db/client';
import type { CacheHome, ChangeKind } from './lib/cache-home';

/**
 * The changes that invalidate cached data, one function per kind of change. Call the one that names what a
 * committed write changed (this instance then answers with it at once); `announce` in the write's transaction
 * tells every other instance (the database's triggers already announce the shorts, reaction, comment,
 * subscription and creator writes).
 */
export interface CacheChanges {
  /** The feed's order moved (the freshness refresh). */
  rankingChanged(): void;
  /** A short's counters moved (a reaction, a comment's count): its item and the ranked pages' order. */
  countsChanged(shortId: number): void;
  /** A short's comments changed (written, deleted, hidden): its comment lists, its count, the ranking. */
  commentsChanged(shortId: number): void;
  /** A short itself changed (text, media; hidden or deleted): everything about it, and every feed. */
  shortChanged(shortId: number): void;
  /**
   * A short became playable (published, restored): everything about it and the signed-in ranked pages. The
   * anonymous feed lists it from the ranking's next refresh, within a minute, as it does moved counts (ADR 0152).
   */
  shortAdded(shortId: number): void;
  /** Viewers' reactions or subscriptions changed; `'*'` = every viewer. */
  viewersChanged(viewers: readonly number[] | '*'): void;
  /** Whom these viewers blocked changed; `'*'` = every viewer. */
  blocksChanged(viewers: readonly number[] | '*'): void;
  /** A creator's name or picture (in items and comments everywhere), or a gap in hearing changes. */
  everythingChanged(): void;
}

/** The kinds of change carried on the `feed_changed` channel as `kind:id,id`; `*` or empty = everything. */
export type AnnouncedKind = 'ranking' | 'counts' | 'comments' | 'short' | 'added';

/** Tells every instance (this one included, through LISTEN) once `tx` commits. */
export async function announceChange(tx: Pick<Db, 'execute'>, kind: AnnouncedKind, ids: number[] = []) {
  const payload = ids.length ? `${kind}:${ids.join(',')}` : kind;
  await tx.execute(sql`select pg_notify('feed_changed', ${payload})`);
}

/** The change API over one instance's cache home. */
export function changesOf(home: CacheHome): CacheChanges {
  const drop = (kind: ChangeKind, ids: readonly number[] | 'all' = 'all') => home.drop({ kind, ids });
  const countsChanged = (shortId: number) => drop('counts', [shortId]);
  const commentsChanged = (shortId: number) => {
    drop('comments', [shortId]);
    countsChanged(shortId);
  };
  return {
    rankingChanged: () => drop('ranking'),
    countsChanged,
    commentsChanged,
    shortChanged: (shortId) => {
      commentsChanged(shortId);
      drop('ranking');
    },
    // Its comments and counts name every cache holding it; counts also drop the signed-in ranked pages.
    shortAdded: commentsChanged,
    viewersChanged: (viewers) => drop('viewers', viewers === '*' ? 'all' : viewers),
    blocksChanged: (viewers) => drop('blocks', viewers === '*' ? 'all' : viewers),
    everythingChanged: () => home.drop(null),
  };
}

const idsOf = (text: string) =>
  text
    .split(',')
    .map(Number)
    .filter((id) => Number.isSafeInteger(id) && id > 0);

/**
 * Applies a `feed_changed` payload (`ranking`, `counts:1,2`, `comments:3`, `short:4`, `added:5`; `*` or '' =
 * all).
 */
export function applyAnnounced(changes: CacheChanges, payload: string): void {
  const [kind, list = ''] = payload.split(':', 2);
  const ids = idsOf(list);
  if (kind === 'ranking') changes.rankingChanged();
  else if (kind === 'counts') for (const id of ids) changes.countsChanged(id);
  else if (kind === 'comments') for (const id of ids) changes.commentsChanged(id);
  else if (kind === 'short') for (const id of ids) changes.shortChanged(id);
  else if (kind === 'added') for (const id of ids) changes.shortAdded(id);
  else changes.everythingChanged();
}

/** The viewer ids of a 'viewer_changed' or 'blocks_changed' payload (`'*'` or empty: every viewer). */
export function viewersOfNotification(payload: string): number[] | '*' {
  if (payload === '*' || payload === '') return '*';
  return idsOf(payload);
}
