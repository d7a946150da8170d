import type { MyReaction, ReactionResult, ReactionType } from '@ohgood/contract/shorts';
import { and, eq, sql } from 'drizzle-orm';
import type { CacheChanges } from '../../cache-changes';
import type { Db } from '../../db/client';
import { shortReactions, shorts } from '../../db/schema';
import { withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { lockReadyShort } from './playable-short';

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
        const [existing] = await tx
          .select({ type: shortReactions.type })
          .from(shortReactions)
          .where(and(eq(shortReactions.shortId, shortId), eq(shortReactions.customerId, customerId)));
        let like = 0;
        let dislike = 0;
        let mine: MyReaction;
        if (existing?.type === type) {
          await tx
            .delete(shortReactions)
            .where(and(eq(shortReactions.shortId, shortId), eq(shortReactions.customerId, customerId)));
          if (type === 'like') like = -1;
          else dislike = -1;
          mine = 'none';
        } else {
          if (existing) {
            await tx
              .update(shortReactions)
              .set({ type, createdAt: clock.now() })
              .where(and(eq(shortReactions.shortId, shortId), eq(shortReactions.customerId, customerId)));
            if (existing.type === 'like') like = -1;
            else dislike = -1;
          } else {
            await tx.insert(shortReactions).values({ shortId, customerId, type, createdAt: clock.now() });
          }
          if (type === 'like') like += 1;
          else dislike += 1;
          mine = type;
        }
        const [updated] = await tx
          .update(shorts)
          .set({
            likeCount: sql`greatest(0, ${shorts.likeCount} + ${like})`,
            dislikeCount: sql`greatest(0, ${shorts.dislikeCount} + ${dislike})`,
          })
          .where(eq(shorts.id, shortId))
          .returning({ likeCount: shorts.likeCount });
        return { likeCount: updated?.likeCount ?? 0, myReaction: mine };
      });
      // After the commit, so this instance's next answers show it at once (others hear it from the database).
      changes.countsChanged(shortId);
      changes.viewersChanged([customerId]);
      return result;
    },
  };
}

export type ReactionsService = ReturnType<typeof createReactionsService>;
