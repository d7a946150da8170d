import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
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
 * The start of each served short without an unpaid watch of its customer, for one or more served pages at once
 * (`WatchStartQueue`): one row per (customer, short) pair, at the earliest time it was served. Built once:
 * every signed-in feed page sends it (drizzle built its text on each page before). Each list is one array
 * parameter, so the text is the same however many pages it carries. A page's customer and time go once per page
 * (not once per short): its shorts name their page by its place in those lists.
 */
const startWatchesStatement = builtOnce(
  sql`insert into short_views (short_id, customer_id, started_at)
      select s.short_id, p.customer_id, min(p.started_at)
        from unnest(${sql.placeholder('customerIds')}::int[], ${sql.placeholder('startedAts')}::timestamptz[])
               with ordinality as p(customer_id, started_at, page)
        join unnest(${sql.placeholder('shortIds')}::int[], ${sql.placeholder('pageOf')}::int[]) as s(short_id, page)
          on s.page = p.page,
             ${commitWithoutWaitingForDisk}
       where not exists (select 1 from short_views v
                          where v.customer_id = p.customer_id and v.short_id = s.short_id
                            and v.rewarded_at is null)
       group by s.short_id, p.customer_id`,
);

/** Shorts served to one customer at one moment. */
export interface ServedPage {
  customerId: number;
  shortIds: readonly number[];
  at: Date;
}

/**
 * The customers were just served these shorts: each one without an unpaid watch of its customer gets one
 * starting when it was served. Reloading a page adds no rows (an open watch keeps its earlier start, which only
 * ever allows what real time since then allows), nor does the same short served twice in one call.
 */
export async function startWatches(executor: Executor, pages: readonly ServedPage[]): Promise<void> {
  const shortIds: number[] = [];
  const pageOf: number[] = [];
  const customerIds: number[] = [];
  const startedAts: string[] = [];
  for (const page of pages) {
    if (page.shortIds.length === 0) continue;
    customerIds.push(page.customerId);
    startedAts.push(page.at.toISOString());
    // Its place in the lists above, counted from 1 as `with ordinality` counts.
    const place = customerIds.length;
    for (const id of page.shortIds) {
      shortIds.push(id);
      pageOf.push(place);
    }
  }
  if (shortIds.length === 0) return;
  await startWatchesStatement(executor, {
    shortIds: `{${shortIds.join(',')}}`,
    pageOf: `{${pageOf.join(',')}}`,
    customerIds: `{${customerIds.join(',')}}`,
    startedAts: `{${startedAts.join(',')}}`,
  });
}

/** Settles once the event loop has handled everything that was ready in its current turn. */
const endOfTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Pages one statement carries at most (a backlog goes out in several): its arrays stay a few thousand ids. */
const PAGES_PER_STATEMENT = 100;

interface QueuedPage extends ServedPage {
  started(): void;
  failed(error: unknown): void;
}

/**
 * Watch starts of pages served together share one statement (ADR 0254). A page's start waits for the
 * statement that carries it, as it waited for its own before, so a claim after the page still finds its
 * watch. Pages served in the same turn of the event loop go together, and pages served while a statement is
 * out go in the next one: one statement in flight, each carrying every page that arrived meanwhile, instead of
 * one round trip and one transaction per page. When a shared statement fails (a short deleted since its page
 * was read), each of its pages starts alone, so a page fails only for its own reason.
 */
export function createWatchStartQueue(db: Db) {
  const queued: QueuedPage[] = [];
  let sending = false;

  async function sendAlone(page: QueuedPage): Promise<void> {
    try {
      await startWatches(db, [page]);
      page.started();
    } catch (error) {
      page.failed(error);
    }
  }

  async function send(pages: QueuedPage[]): Promise<void> {
    if (pages.length === 1) return sendAlone(pages[0] as QueuedPage);
    try {
      await startWatches(db, pages);
      for (const page of pages) page.started();
    } catch {
      await Promise.all(pages.map(sendAlone));
    }
  }

  async function drain(): Promise<void> {
    try {
      // Each statement waits for the end of the event loop's turn (`setImmediate`: after every connection
      // that was ready in it was read and served), so the pages of all of them go together, not only those
      // of the first request's microtasks.
      do {
        await endOfTurn();
        await send(queued.splice(0, PAGES_PER_STATEMENT));
      } while (queued.length > 0);
    } finally {
      sending = false;
    }
  }

  return {
    /** Starts the watches of a page served to `customerId` at `at`; settles once they are written. */
    start(customerId: number, shortIds: readonly number[], at: Date): Promise<void> {
      if (shortIds.length === 0) return Promise.resolve();
      return new Promise<void>((started, failed) => {
        queued.push({ customerId, shortIds, at, started, failed });
        if (sending) return;
        sending = true;
        void drain();
      });
    },
  };
}

export type WatchStartQueue = ReturnType<typeof createWatchStartQueue>;
