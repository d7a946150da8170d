import { type DomainEvent, isCustomerEvent } from '@ohgood/contract/domain-events';
import { NOTIFICATION_RULES } from '@ohgood/contract/notifications';
import { eq, sql } from 'drizzle-orm';
import { customers, notifications, shortSubscriptions } from '../../db/schema';
import { rowsOf, type Tx } from '../../db/tx';
import type { EventConsumer } from '../../events/relay';
import { autopayActiveSql } from '../autopay/standing';
import { type NoticeDraft, noticesOf, readsCustomerFacts } from './notice-copy';
import { deliveryOf, preferencesOf } from './preferences';

/**
 * Domain events → notices (docs/rules/notifications.md#N1), a consumer of the outbox relay: the notices of a
 * batch are written in the relay's transaction, so they commit with the events' mark or not at all, and each
 * notice's dedupe key keeps a repeat (a retry, a crash after the write) from adding one twice. `onPushDue` runs
 * after a delivery that wrote a notice to push now (the push sender's wake-up): most events (a watch claim's
 * points) write none, and an idle look is a transaction of its own. Later pushes are the jobs' push drain's.
 */
export function noticesConsumer(onPushDue: () => void = () => undefined): EventConsumer {
  return {
    name: 'notices',
    // Notices are a customer's: a merchant's fact (a settlement) gives none.
    wants: isCustomerEvent,
    async handle(all, { tx, now, afterCommit }) {
      const batch = all.flatMap((item) => (isCustomerEvent(item.event) ? [{ ...item, event: item.event }] : []));
      const autopay = await autopayOf(
        tx,
        batch.filter(({ event }) => readsCustomerFacts(event)).map(({ event }) => event.customerId),
      );
      const drafts: NoticeDraft[] = [];
      for (const { id, event, occurredAt } of batch) {
        drafts.push(...noticesOf(event, id, { autopay: autopay.get(event.customerId) ?? false }));
        drafts.push(...(await subscriberNotices(tx, event, occurredAt)));
      }
      if (await writeNotices(tx, drafts, now)) afterCommit(onPushDue);
    },
  };
}

/** Whether autopay will really debit each customer (switched on, consented, verified; bills-and-grades.md#B23). */
async function autopayOf(tx: Tx, customerIds: number[]): Promise<Map<number, boolean>> {
  const ids = [...new Set(customerIds)];
  if (ids.length === 0) return new Map();
  const rows = await rowsOf<{ id: number; autopay: boolean }>(
    tx,
    sql`select c.id, ${autopayActiveSql(sql`c`)} as autopay from ${customers} c
      where c.id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
  );
  return new Map(rows.map((row) => [row.id, row.autopay]));
}

/**
 * A creator's new short tells each subscriber, batched (docs/rules/notifications.md#N3): at most one notice per
 * (subscriber, creator, clock hour), keyed so, whatever the number of uploads in that hour.
 */
async function subscriberNotices(tx: Tx, event: DomainEvent, occurredAt: Date): Promise<NoticeDraft[]> {
  if (event.type !== 'shorts.published') return [];
  const subscribers = await tx
    .select({ id: shortSubscriptions.subscriberId })
    .from(shortSubscriptions)
    .where(eq(shortSubscriptions.targetId, event.customerId));
  const hour = Math.floor(occurredAt.getTime() / (NOTIFICATION_RULES.creatorBatchMinutes * 60_000));
  return subscribers.map(({ id }) => ({
    customerId: id,
    kind: 'creator_new_short',
    category: 'community',
    title: '구독한 크리에이터의 새 쇼츠',
    body: `${event.nickname}님이 새 쇼츠를 올렸어요: ${event.title}`,
    link: `/shorts/feeds?shortsId=${event.shortId}`,
    dedupeKey: `creator:${id}:${event.customerId}:${hour}`,
  }));
}

/**
 * Writes the drafts each customer's preferences let through, each once (its dedupe key); true when one of
 * them is to be pushed now.
 */
async function writeNotices(tx: Tx, drafts: NoticeDraft[], now: Date): Promise<boolean> {
  if (drafts.length === 0) return false;
  const prefs = await preferencesOf(
    tx,
    drafts.map((d) => d.customerId),
  );
  const values = drafts.flatMap((draft) => {
    const delivery = deliveryOf(draft.category, prefs.get(draft.customerId) ?? prefsMissing(), now);
    if (!delivery.inApp) return [];
    return [{ ...draft, createdAt: now, pushDueAt: delivery.pushAt }];
  });
  if (values.length > 0) await tx.insert(notifications).values(values).onConflictDoNothing();
  return values.some((value) => value.pushDueAt !== null && value.pushDueAt <= now);
}

function prefsMissing(): never {
  throw new Error('preferencesOf returns every asked customer');
}
