import { CHAT_SESSIONS_PER_CUSTOMER } from '@ohgood/contract/chat-rules';
import { sql } from 'drizzle-orm';
import { commitWithoutWaitingForDisk } from '../../db/commit-without-waiting';
import { type Executor, rowsOf, type Tx } from '../../db/tx';
import type { ChatState } from './engine';

/*
 * A conversation's row, as a turn reads, writes and caps it. Its statements are written out rather than built
 * by the query builder: building them took about a quarter of a turn, p50 3.7–3.9 → 2.5–3.0 ms in the chat
 * benchmark (ADR 0158, docs/performance.md). A turn of an existing session reads its row without a lock and
 * saves only if the row is still the version it read (ADR 0245): two statements, no transaction.
 */

/** A conversation as the turn reads it (`readSessionForTurn`). */
export interface SessionRow {
  id: string;
  customerId: number;
  flow: string;
  mood: string | null;
  hobby: string | null;
  shownProductIds: number[];
  options: string[];
  pending: unknown;
  history: unknown;
  updatedAtMs: number;
  /** The row's version as read (its `xmin`: every update of the row changes it). */
  version: string;
}

/**
 * The customer's session of this id. `lock`: locked for the rest of the transaction, so two turns of one
 * session (a double-clicked option, two tabs) queue; without it, `updateSession` refuses to save over a turn
 * that saved in between. Ids are the client's, unique within a customer (key (customer_id, id), migration
 * 0057): the same id of another customer is another conversation and never found here.
 */
export async function readSession(
  executor: Executor,
  customerId: number,
  sessionId: string,
  { lock }: { lock: boolean },
): Promise<SessionRow | undefined> {
  const [row] = await rowsOf<SessionRow>(
    executor,
    sql`
    select id, customer_id as "customerId", flow, mood, hobby, shown_product_ids as "shownProductIds",
           options, pending, history, (extract(epoch from updated_at) * 1000)::float8 as "updatedAtMs",
           xmin::text as version
      from chat_sessions
     where customer_id = ${customerId}::int and id = ${sessionId}${lock ? sql` for update` : sql``}`,
  );
  return row;
}

const json = (value: unknown) => (value === null ? null : JSON.stringify(value));

/**
 * Saves the turn's state over the version of the row the turn read; false when the row changed or went
 * since (another turn of the session saved, or it was cleared): then the turn runs again on what is there.
 * The same statement makes the turn's commit not wait for the disk (ADR 0140).
 */
export async function updateSession(
  executor: Executor,
  read: Pick<SessionRow, 'id' | 'customerId' | 'version'>,
  state: ChatState,
  now: Date,
): Promise<boolean> {
  const saved = await rowsOf<{ id: string }>(
    executor,
    sql`
    update chat_sessions
       set flow = ${state.flow}::text, mood = ${state.mood}::text, hobby = ${state.hobby}::text,
           shown_product_ids = ${sql.param(state.shownIds)}::int[], options = ${json(state.options)}::jsonb,
           pending = ${json(state.pending)}::jsonb, history = ${json(state.history)}::jsonb,
           updated_at = ${now}::timestamptz
      from ${commitWithoutWaitingForDisk}
     where customer_id = ${read.customerId}::int and id = ${read.id} and xmin = ${read.version}::xid
    returning id`,
  );
  return saved.length === 1;
}

/** Namespace of the advisory lock that makes one customer's new chat sessions start one at a time. */
const NEW_CHAT_SESSION_LOCK = 7_420_252;

/**
 * Starts the customer's session of this id with the turn's state (two first turns of one new id in the same
 * instant: the second updates what the first inserted), and keeps the customer's CHAT_SESSIONS_PER_CUSTOMER
 * most recently used conversations; older ones expire now. New sessions of one customer take turns (a
 * transaction-scoped advisory lock, outside the row lock order, taken by its own statement so the next one's
 * snapshot sees every session the lock's previous holders committed): a burst of them cannot each see the
 * others uncommitted and leave more than the cap. The session and the cap are one statement after the lock.
 */
export async function createSession(
  tx: Tx,
  sessionId: string,
  customerId: number,
  state: ChatState,
  now: Date,
): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${NEW_CHAT_SESSION_LOCK}, ${customerId})`);
  // The insert's row is not in the statement's snapshot: the cap keeps the newest others, one fewer than it.
  await tx.execute(sql`
    with saved as (
      insert into chat_sessions
             (id, customer_id, flow, mood, hobby, shown_product_ids, options, pending, history, created_at, updated_at)
      select ${sessionId}::text, ${customerId}::int, ${state.flow}::text, ${state.mood}::text, ${state.hobby}::text,
             ${sql.param(state.shownIds)}::int[], ${json(state.options)}::jsonb, ${json(state.pending)}::jsonb,
             ${json(state.history)}::jsonb, ${now}::timestamptz, ${now}::timestamptz
        from ${commitWithoutWaitingForDisk}
          on conflict (customer_id, id) do update
         set flow = excluded.flow, mood = excluded.mood, hobby = excluded.hobby,
             shown_product_ids = excluded.shown_product_ids, options = excluded.options,
             pending = excluded.pending, history = excluded.history, updated_at = excluded.updated_at
      returning id)
    delete from chat_sessions
     where customer_id = ${customerId}::int and id <> ${sessionId}::text
       and id not in (select id from chat_sessions
                       where customer_id = ${customerId}::int and id <> ${sessionId}::text
                       order by updated_at desc, created_at desc
                       limit ${CHAT_SESSIONS_PER_CUSTOMER - 1})
       and exists (select from saved)`);
}
