import { WEBHOOK_RULES } from '@ohgood/contract/webhooks';
import { sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/tx';

/** Rows removed per statement, so one prune never holds a long list of row locks at once. */
export const PRUNE_BATCH = 500;

const DAY_MS = 86_400_000;

/**
 * Deliveries that are over, past their retention (docs/rules/webhooks.md#W9): delivered ones
 * `deliveredRetentionDays` after their last attempt, given-up ones `failedRetentionDays` after it, oldest first
 * in batches; then each removed delivery's event once no delivery refers to it. A pending delivery is never
 * touched: rows are re-checked under their lock, and a row a sender or a replay holds is skipped (a replay
 * makes it pending again), so a prune racing them loses nothing.
 */
export async function pruneWebhookDeliveries(tx: Executor, at: Date): Promise<number> {
  const delivered = await pruneSettled(
    tx,
    'SUCCEEDED',
    new Date(at.getTime() - WEBHOOK_RULES.deliveredRetentionDays * DAY_MS),
  );
  const failed = await pruneSettled(tx, 'FAILED', new Date(at.getTime() - WEBHOOK_RULES.failedRetentionDays * DAY_MS));
  return delivered + failed;
}

async function pruneSettled(tx: Executor, status: 'SUCCEEDED' | 'FAILED', before: Date): Promise<number> {
  let pruned = 0;
  for (;;) {
    const gone = await rowsOf<{ event_id: string }>(
      tx,
      sql`with due as (
          select id from webhook_deliveries
          where status = ${status} and last_attempt_at < ${before}
          order by last_attempt_at, id limit ${PRUNE_BATCH}
          for update skip locked
        )
        delete from webhook_deliveries d using due
        where d.id = due.id and d.status = ${status} and d.last_attempt_at < ${before}
        returning d.event_id`,
    );
    if (gone.length > 0) {
      const events = [...new Set(gone.map((row) => row.event_id))];
      await tx.execute(
        sql`delete from webhook_events e where e.id in (${sql.join(
          events.map((id) => sql`${id}`),
          sql`, `,
        )})
          and not exists (select 1 from webhook_deliveries d where d.event_id = e.id)`,
      );
    }
    pruned += gone.length;
    if (gone.length < PRUNE_BATCH) return pruned;
  }
}

/**
 * Events no delivery refers to any more, older than the longest retention: deleting an endpoint takes its
 * deliveries with it (docs/rules/webhooks.md#W9) and leaves their events behind, which the delivery prune above
 * never meets. Oldest first in batches; an event a new delivery is being queued for holds a key-share lock, so
 * it is skipped, and re-checked under its own lock before it goes.
 */
export async function pruneOrphanWebhookEvents(tx: Executor, at: Date): Promise<number> {
  const before = new Date(at.getTime() - WEBHOOK_RULES.failedRetentionDays * DAY_MS);
  let pruned = 0;
  for (;;) {
    const gone = await rowsOf<{ id: string }>(
      tx,
      sql`with due as (
          select e.id from webhook_events e
          where e.created_at < ${before}
            and not exists (select 1 from webhook_deliveries d where d.event_id = e.id)
          order by e.created_at, e.id limit ${PRUNE_BATCH}
          for update of e skip locked
        )
        delete from webhook_events e using due
        where e.id = due.id and not exists (select 1 from webhook_deliveries d where d.event_id = e.id)
        returning e.id`,
    );
    pruned += gone.length;
    if (gone.length < PRUNE_BATCH) return pruned;
  }
}
