import { type DomainEvent, domainEvent } from '@ohgood/contract/domain-events';
import { NOTIFICATION_RULES } from '@ohgood/contract/notifications';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { customers, domainEvents, notifications, shortSubscriptions } from '../../db/schema';
import { rowsOf, type Tx, withTx } from '../../db/tx';
import type { EventConsumer } from '../../events/record-event';
import type { Clock } from '../../lib/clock';
import { coalesced } from '../../lib/coalesced';
import { autopayActiveSql } from '../autopay/standing';
import { type NoticeDraft, noticesOf, readsCustomerFacts } from './notice-copy';
import { deliveryOf, preferencesOf } from './preferences';

const BATCH = 100;

export interface Dispatcher {
  /**
   * Turns every undispatched event into notices and hands it to the other consumers; resolves with how many
   * events it dispatched, once a drain that began after the call has finished.
   */
  drain(): Promise<number>;
}

/**
 * Domain events → notices (docs/rules/notifications.md#N1). Events are recorded in their fact's transaction,
 * so a rolled-back fact has none. Each batch is claimed oldest first with `FOR UPDATE SKIP LOCKED` (instances
 * never wait on or repeat each other's batch), its notices are written and the events marked dispatched in
 * the same transaction: a process that dies mid-batch leaves the events undispatched for the next drain, and
 * each notice's dedupe key keeps a repeat from adding one twice. `consumers` see each batch in the same
 * transaction; `afterBatch` runs after each commit (the push sender). Drains never overlap on one instance,
 * and a burst of wake-ups costs at most one more drain.
 */
export function createDispatcher(
  db: Db,
  clock: Clock,
  afterBatch: () => void = () => undefined,
  consumers: readonly EventConsumer[] = [],
): Dispatcher {
  async function drainOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const { count, pushDue } = await withTx(db, (tx) => dispatchBatch(tx, clock.now(), consumers));
      total += count;
      // Only a notice whose push is due now gives the push sender work: most events (a watch claim's points)
      // write none, and an idle look is a transaction of its own. Later pushes are the jobs' push drain's.
      if (pushDue) afterBatch();
      // A short batch took every event there was to take: no second transaction only to find none (an event
      // recorded since wakes another drain).
      if (count < BATCH) return total;
    }
  }
  return { drain: coalesced(drainOnce) };
}

async function dispatchBatch(
  tx: Tx,
  now: Date,
  consumers: readonly EventConsumer[],
): Promise<{ count: number; pushDue: boolean }> {
  const rows = await rowsOf<{ id: string; payload: unknown; occurred_at: Date }>(
    tx,
    sql`select id, payload, occurred_at from ${domainEvents} where dispatched_at is null
      order by id limit ${BATCH} for update skip locked`,
  );
  if (rows.length === 0) return { count: 0, pushDue: false };
  const events = rows.flatMap((row) => {
    const parsed = domainEvent.safeParse(row.payload);
    // An event this version does not know (written by a newer one) gives no notice here.
    return parsed.success ? [{ row, event: parsed.data }] : [];
  });
  const autopay = await autopayOf(
    tx,
    events.filter(({ event }) => readsCustomerFacts(event)).map(({ event }) => event.customerId),
  );
  const drafts: NoticeDraft[] = [];
  for (const { row, event } of events) {
    drafts.push(...noticesOf(event, Number(row.id), { autopay: autopay.get(event.customerId) ?? false }));
    drafts.push(...(await subscriberNotices(tx, event, new Date(row.occurred_at))));
  }
  const pushDue = await writeNotices(tx, drafts, now);
  for (const consume of consumers)
    await consume(
      tx,
      events.map(({ event }) => event),
    );
  await tx
    .update(domainEvents)
    .set({ dispatchedAt: now })
    .where(
      inArray(
        domainEvents.id,
        rows.map((row) => Number(row.id)),
      ),
    );
  return { count: rows.length, pushDue };
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
