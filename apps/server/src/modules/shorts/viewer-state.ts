import type { MyReaction } from '@ohgood/contract/shorts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { shortReactions, shortSubscriptions } from '../../db/schema';
import { builtOnce } from '../../db/tx';
import type { Cache } from '../../lib/cache-home';

/** What a page of shorts needs to know about its viewer. */
export interface ViewerFacts {
  reactions: Map<number, MyReaction>;
  subscribed: Set<number>;
}

export interface KnownFacts {
  /** myReaction per short looked up so far ('none' included: knowing there is none saves a query too). */
  reactions: Map<number, MyReaction>;
  /** Subscribed or not, per creator looked up so far. */
  subscriptions: Map<number, boolean>;
}

export interface ViewerState {
  /** The viewer's reactions to `shortIds` and subscriptions among `creatorIds`; asks the database only for the unknown. */
  facts(viewer: number, shortIds: number[], creatorIds: number[]): Promise<ViewerFacts>;
}

/**
 * The viewer's reactions among `shortIds` and subscriptions among `creatorIds`, in one statement (a signed-in
 * page needs both; two statements took two pooled connections and two waits). Each list is one array
 * parameter, so the text is the same whatever the page holds.
 */
const factsStatement = builtOnce<{ shortId: number | null; type: MyReaction | null; targetId: number | null }>(
  sql`select ${shortReactions.shortId} as "shortId", ${shortReactions.type} as type, null::int as "targetId"
        from ${shortReactions}
       where ${shortReactions.customerId} = ${sql.placeholder('viewer')}::int
         and ${shortReactions.shortId} = any(${sql.placeholder('shortIds')}::int[])
      union all
      select null, null, ${shortSubscriptions.targetId}
        from ${shortSubscriptions}
       where ${shortSubscriptions.subscriberId} = ${sql.placeholder('viewer')}::int
         and ${shortSubscriptions.targetId} = any(${sql.placeholder('creatorIds')}::int[])`,
);

/**
 * Per-viewer memory of reactions and subscriptions, so a signed-in reader paging the feed costs no queries
 * once their rows for those shorts are known. Kept exact by its cache (`caches.ts`, 'viewer-facts'): a
 * viewer's entry is dropped right after their own write on this instance and on the database's
 * 'viewer_changed' notification (migration 0010) everywhere, whoever wrote. A lookup that raced a drop
 * answers its request but is not kept.
 */
export function createViewerState(db: Db, known: Cache<number, KnownFacts>): ViewerState {
  function entryOf(viewer: number): KnownFacts {
    let entry = known.get(viewer);
    if (!entry) {
      entry = { reactions: new Map(), subscriptions: new Map() };
      known.set(viewer, entry);
    }
    return entry;
  }

  return {
    async facts(viewer, shortIds, creatorIds) {
      const entry = entryOf(viewer);
      const missingShorts = [...new Set(shortIds)].filter((id) => !entry.reactions.has(id));
      const missingCreators = [...new Set(creatorIds)].filter((id) => id !== viewer && !entry.subscriptions.has(id));
      const rows =
        missingShorts.length + missingCreators.length > 0
          ? await factsStatement(db, { viewer, shortIds: missingShorts, creatorIds: missingCreators })
          : [];
      // Dropped meanwhile (a write raced this lookup): answer from what was read, keep nothing.
      const target =
        known.peek(viewer) === entry
          ? entry
          : { reactions: new Map(entry.reactions), subscriptions: new Map(entry.subscriptions) };
      for (const id of missingShorts) target.reactions.set(id, 'none');
      for (const id of missingCreators) target.subscriptions.set(id, false);
      for (const row of rows) {
        if (row.shortId !== null) target.reactions.set(row.shortId, row.type ?? 'none');
        if (row.targetId !== null) target.subscriptions.set(row.targetId, true);
      }
      return {
        reactions: new Map(shortIds.map((id) => [id, target.reactions.get(id) ?? 'none'])),
        subscribed: new Set(creatorIds.filter((id) => target.subscriptions.get(id) === true)),
      };
    },
  };
}
