import { sql } from 'drizzle-orm';
import { commitWithoutWaitingForDisk } from '../../db/commit-without-waiting';
import { shorts } from '../../db/schema';
import { builtOnce, type Executor } from '../../db/tx';
import { playable } from './playable-short';

/**
 * Where watches start (docs/rules/shorts.md#S16): a `short_views` row is the server's clock saying "this
 * customer began watching here". Views are half of everything viewers send, so each start is one statement,
 * and it commits without waiting for the disk (ADR 0162): a start is not money. A database crash may lose the
 * last fraction of a second of starts, and a claim on a lost one is refused as any unknown watch is; a claim
 * that is paid commits synchronously, which flushes every start written before it.
 */

/** Opens a view of a playable short; null when there is no such short. Built once: sent hundreds of times a second. */
const openViewStatement = builtOnce<{ id: number }>(
  sql`insert into short_views (short_id, customer_id, started_at)
      select ${shorts.id}, ${sql.placeholder('customerId')}::int, ${sql.placeholder('startedAt')}::timestamptz
        from ${shorts}, ${commitWithoutWaitingForDisk}
       where ${playable(sql.placeholder('shortId'))}
      returning id`,
);

export async function openView(
  executor: Executor,
  shortId: number,
  customerId: number,
  startedAt: Date,
): Promise<number | null> {
  const [row] = await openViewStatement(executor, { shortId, customerId, startedAt: startedAt.toISOString() });
  return row?.id ?? null;
}

/**
 * The start of each served short without an unpaid watch of the customer. Built once: every signed-in feed page
 * sends it (drizzle built its text on each page before).
 */
const startWatchesStatement = builtOnce(
  sql`insert into short_views (short_id, customer_id, started_at)
      select ids.id, ${sql.placeholder('customerId')}::int, ${sql.placeholder('at')}::timestamptz
        from unnest(${sql.placeholder('shortIds')}::int[]) as ids(id), ${commitWithoutWaitingForDisk}
       where not exists (select 1 from short_views v
                          where v.customer_id = ${sql.placeholder('customerId')}::int and v.short_id = ids.id
                            and v.rewarded_at is null)`,
);

/**
 * The customer was just served these shorts: each one without an unpaid watch gets one starting `at`.
 * Reloading a page adds no rows (an open watch keeps its earlier start, which only ever allows what real
 * time since then allows).
 */
export async function startWatches(
  executor: Executor,
  customerId: number,
  shortIds: readonly number[],
  at: Date,
): Promise<void> {
  if (shortIds.length === 0) return;
  await startWatchesStatement(executor, { customerId, shortIds: `{${shortIds.join(',')}}`, at: at.toISOString() });
}
