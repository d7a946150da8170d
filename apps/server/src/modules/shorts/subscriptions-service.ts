import { SHORTS_MSG } from '@ohgood/contract/shorts-rules';
import { and, count, eq } from 'drizzle-orm';
import type { CacheChanges } from '../../cache-changes';
import type { Db } from '../../db/client';
import { customers, shortSubscriptions } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { notFound, unprocessable } from '../../lib/errors';

/** Following a creator: a unique pair, never oneself (docs/rules/shorts.md#S5). */
export function createSubscriptionsService(db: Db, clock: Clock, changes: Pick<CacheChanges, 'viewersChanged'>) {
  async function subscriberCount(target: number): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(shortSubscriptions)
      .where(eq(shortSubscriptions.targetId, target));
    return row?.n ?? 0;
  }

  return {
    async subscribe(subscriber: number, target: number) {
      if (subscriber === target) throw unprocessable('SELF_SUBSCRIBE', SHORTS_MSG.selfSubscribe);
      const [exists] = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, target));
      if (!exists) throw notFound('CUSTOMER_NOT_FOUND', '사용자를 찾을 수 없습니다.');
      await db
        .insert(shortSubscriptions)
        .values({ subscriberId: subscriber, targetId: target, createdAt: clock.now() })
        .onConflictDoNothing();
      // Written: this instance's next page shows it at once (others hear 'viewer_changed').
      changes.viewersChanged([subscriber]);
      return { subscriptionStatus: 'SUBSCRIBED' as const, subscriberCount: await subscriberCount(target) };
    },

    async unsubscribe(subscriber: number, target: number) {
      await db
        .delete(shortSubscriptions)
        .where(and(eq(shortSubscriptions.subscriberId, subscriber), eq(shortSubscriptions.targetId, target)));
      changes.viewersChanged([subscriber]);
      return { subscriptionStatus: 'NOT_SUBSCRIBED' as const, subscriberCount: await subscriberCount(target) };
    },
  };
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
