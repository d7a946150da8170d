import { CHAT_SESSIONS_PER_CUSTOMER } from '@ohgood/contract/chat-rules';
import { and, desc, eq, notInArray, sql } from 'drizzle-orm';
import { commitWithoutWaitingForDisk } from '../../db/commit-without-waiting';
import { chatSessions } from '../../db/schema';
import { rowsOf, type Tx } from '../../db/tx';
import type { ChatState } from './engine';

/*
 * A conversation's row, as a turn reads, writes and caps it, inside the turn's transaction. Its statements
 * are written out rather than built by the query builder: building them took about a quarter of a turn, p50
 * 3.7–3.9 → 2.5–3.0 ms in the chat benchmark (ADR 0158, docs/performance.md).
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
}

/**
 * The customer's session of this id, locked for this turn: two turns of one session (a double-clicked option,
 * two tabs) queue. Ids are the client's, unique within a customer (key (customer_id, id), migration 0057): the
 * same id of another customer is another conversation and never found here.
 */
export async function readSessionForTurn(
  tx: Tx,
  customerId: number,
  sessionId: string,
): Promise<SessionRow | undefined> {
  const [row] = await rowsOf<SessionRow>(
    tx,
    sql`
    select id, customer_id as "customerId", flow, mood, hobby, shown_product_ids as "shownProductIds",
           options, pending, history, (extract(epoch from updated_at) * 1000)::float8 as "updatedAtMs"
      from chat_sessions
     where customer_id = ${customerId}::int and id = ${sessionId}
       for update`,
  );
  return row;
}

/**
 * Stores the turn's state in the customer's session of this id: a first turn creates it, later ones update it
 * (two first turns of one new id in the same instant: the second updates what the first inserted).
 */
export async function saveSession(
  tx: Tx,
  sessionId: string,
  customerId: number,
  state: ChatState,
  now: Date,
): Promise<void> {
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  // The same statement makes the turn's commit not wait for the disk (ADR 0140): synchronous_commit only
  // matters at the commit, and setting it here saves the turn a round trip of its own.
  await tx.execute(sql`
    insert into chat_sessions
           (id, customer_id, flow, mood, hobby, shown_product_ids, options, pending, history, created_at, updated_at)
    select ${sessionId}::text, ${customerId}::int, ${state.flow}::text, ${state.mood}::text, ${state.hobby}::text,
           ${sql.param(state.shownIds)}::int[], ${json(state.options)}::jsonb, ${json(state.pending)}::jsonb,
           ${json(state.history)}::jsonb, ${now}::timestamptz, ${now}::timestamptz
      from ${commitWithoutWaitingForDisk}
        on conflict (customer_id, id) do update
       set flow = excluded.flow, mood = excluded.mood, hobby = excluded.hobby,
           shown_product_ids = excluded.shown_product_ids, options = excluded.options,
           pending = excluded.pending, history = excluded.history, updated_at = excluded.updated_at`);
}

/** Namespace of the advisory lock that makes one customer's new chat sessions start one at a time. */
const NEW_CHAT_SESSION_LOCK = 7_420_252;

/**
 * Keeps a customer's CHAT_SESSIONS_PER_CUSTOMER most recently used conversations; older ones expire now. New
 * sessions of one customer take turns (a transaction-scoped advisory lock, outside the row lock order), so a
 * burst of them cannot each see the others uncommitted and leave more than the cap.
 */
export async function forgetBeyondCap(tx: Tx, customerId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${NEW_CHAT_SESSION_LOCK}, ${customerId})`);
  const kept = tx
    .select({ id: chatSessions.id })
    .from(chatSessions)
    .where(eq(chatSessions.customerId, customerId))
    .orderBy(desc(chatSessions.updatedAt), desc(chatSessions.createdAt))
    .limit(CHAT_SESSIONS_PER_CUSTOMER);
  await tx.delete(chatSessions).where(and(eq(chatSessions.customerId, customerId), notInArray(chatSessions.id, kept)));
}
