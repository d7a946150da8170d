import type { MyReaction, ReactionResult, ReactionType } from '@ohgood/contract/shorts';
import { sql } from 'drizzle-orm';
import type { CacheChanges } from '../../cache-changes';
import type { Db } from '../../db/client';
import { shortReactions, shorts } from '../../db/schema';
import { builtOnce, withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { lockReadyShort } from './playable-short';

/**
 * A customer's reaction to a short, moved in one statement: the same type again removes it, the other replaces
 * it, none yet adds it, and the short's counters move by exactly that change (never below 0). Run after the
 * short's lock, so its snapshot holds the last reaction this customer committed on the short. Answers the like
 * count and the customer's reaction after it.
 */
const applyReaction = builtOnce<{ likeCount: number; mine: MyReaction }>(
  sql`with before as (
        select (select r.type from ${shortReactions} r
                 where r.short_id = ${sql.placeholder('shortId')}::int
                   and r.customer_id = ${sql.placeholder('customerId')}::int) as old
      ), next as (
        select old, case when old = ${sql.placeholder('type')}::text then null
                         else ${sql.placeholder('type')}::text end as new
          from before
      ), removed as (
        delete from ${shortReactions}
         where short_id = ${sql.placeholder('shortId')}::int and customer_id = ${sql.placeholder('customerId')}::int
           and (select new from next) is null
      ), changed as (
        update ${shortReactions} set type = ${sql.placeholder('type')}::text,
                                      created_at = ${sql.placeholder('now')}::timestamptz
         where short_id = ${sql.placeholder('shortId')}::int and customer_id = ${sql.placeholder('customerId')}::int
           and (select old is not null and new is not null from next)
      ), added as (
        insert into ${shortReactions} (short_id, customer_id, type, created_at)
        select ${sql.placeholder('shortId')}::int, ${sql.placeholder('customerId')}::int,
               ${sql.placeholder('type')}::text, ${sql.placeholder('now')}::timestamptz
          from next where old is null
      ), counted as (
        update ${shorts}
           set like_count = greatest(0, ${shorts.likeCount}
                 + (n.new is not distinct from 'like')::int - (n.old is not distinct from 'like')::int),
               dislike_count = greatest(0, ${shorts.dislikeCount}
                 + (n.new is not distinct from 'dislike')::int - (n.old is not distinct from 'dislike')::int)
          from next n
         where ${shorts.id} = ${sql.placeholder('shortId')}::int
        returning ${shorts.likeCount}
      )
      select (select like_count from counted) as "likeCount", coalesce((select new from next), 'none') as mine`,
);

/** One like or dislike per customer per short, with exact counters (docs/rules/shorts.md#S3). */
export function createReactionsService(
  db: Db,
  clock: Clock,
  changes: Pick<CacheChanges, 'countsChanged' | 'viewersChanged'>,
) {
  return {
    /**
     * Same reaction again removes it; the other replaces it. The short's row lock serialises reactions on
     * one short, so the counters stay exact under concurrent clicks (docs/rules/shorts.md#S3).
     */
    async react(shortId: number, customerId: number, type: ReactionType): Promise<ReactionResult> {
      const result = await withTx(db, async (tx) => {
        await lockReadyShort(tx, shortId);
        const [moved] = await applyReaction(tx, { shortId, customerId, type, now: clock.now().toISOString() });
        if (!moved) throw new Error('a reaction statement answered no row');
        return { likeCount: moved.likeCount, myReaction: moved.mine };
      });
      // After the commit, so this instance's next answers show it at once (others hear it from the database).
      changes.countsChanged(shortId);
      changes.viewersChanged([customerId]);
      return result;
    },
  };
}

export type ReactionsService = ReturnType<typeof createReactionsService>;
