import { createHash, randomUUID } from 'node:crypto';
import type { ChatReply } from '@ohgood/contract/chat';
import {
  CHAT_FLOWS,
  CHAT_MSG,
  CHAT_PRODUCTS_PER_TURN,
  CHAT_SESSION_IDLE_MS,
  CHAT_SESSIONS_PER_CUSTOMER,
  type ChatFlow,
  HOBBIES,
  type Hobby,
  MOODS,
  type Mood,
} from '@ohgood/contract/chat-rules';
import { kstMonth } from '@ohgood/contract/kst';
import { mediaUrl } from '@ohgood/contract/media-url';
import { and, desc, eq, lt, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chatProducts, chatSessions } from '../../db/schema';
import { type Tx, withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { forbidden } from '../../lib/errors';
import { availableLimit } from '../bills/statements';
import {
  type CatalogPort,
  type CatalogProduct,
  type ChatState,
  type HistoryEntry,
  initialState,
  type RecommendOutcome,
  runTurn,
} from './engine';
import type { ChatLlm } from './llm';

export interface ChatService {
  turn(customerId: number, input: { sessionId?: string | null; inputMessage: string }): Promise<ChatReply>;
  clear(customerId: number, sessionId: string): Promise<{ sessionId: string; cleared: boolean }>;
}

export interface ChatServiceOptions {
  /** Joined to product image keys (MEDIA_BASE_URL), so a CDN works too. */
  mediaBaseUrl: string;
  llm?: ChatLlm | null;
}

type SessionRow = typeof chatSessions.$inferSelect;

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | null =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : null;

function stateOf(row: SessionRow): ChatState {
  return {
    flow: oneOf(CHAT_FLOWS, row.flow) ?? 'init',
    mood: oneOf(MOODS, row.mood),
    hobby: oneOf(HOBBIES, row.hobby),
    shownIds: row.shownProductIds,
    options: row.options,
    pending: (row.pending as ChatState['pending']) ?? null,
    history: row.history as HistoryEntry[],
  };
}

/** A stable per-session order, so two sessions see the catalogue in different orders. */
function shuffleKey(sessionId: string, id: number): string {
  return createHash('sha1').update(`${sessionId}:${id}`).digest('hex');
}

/** Three unshown products of the hobby, within the customer's available limit, mood matches first. */
function catalogFor(tx: Tx, clock: Clock, customerId: number, sessionId: string): CatalogPort {
  return {
    async recommend({ mood, hobby, excludeIds }: { mood: Mood; hobby: Hobby; excludeIds: readonly number[] }) {
      const shown = new Set(excludeIds);
      const rows = (await tx.select().from(chatProducts).where(eq(chatProducts.hobby, hobby))).filter(
        (p) => !shown.has(p.id),
      );
      if (rows.length === 0) return { kind: 'exhausted' } satisfies RecommendOutcome;
      const limit = await availableLimit(tx, customerId, kstMonth(clock.now()));
      const fitting = rows.filter((p) => p.price <= limit);
      if (fitting.length === 0) return { kind: 'none_within_limit', availableLimit: limit } satisfies RecommendOutcome;
      const ranked = fitting
        .map((p) => ({ p, match: p.moods.includes(mood) ? 0 : 1, key: shuffleKey(sessionId, p.id) }))
        .sort((a, b) => a.match - b.match || a.key.localeCompare(b.key))
        .slice(0, CHAT_PRODUCTS_PER_TURN);
      const products: CatalogProduct[] = ranked.map(({ p }) => ({
        id: p.id,
        name: p.name,
        price: p.price,
        image: p.imageKey,
        url: p.url,
        category: p.category,
      }));
      return { kind: 'ok', products } satisfies RecommendOutcome;
    },
  };
}

/** Namespace of the advisory lock that makes one customer's new chat sessions start one at a time. */
const NEW_CHAT_SESSION_LOCK = 7_420_252;

/**
 * Keeps a customer's CHAT_SESSIONS_PER_CUSTOMER most recently used conversations; older ones expire now. New
 * sessions of one customer take turns (a transaction-scoped advisory lock, outside the row lock order), so a
 * burst of them cannot each see the others uncommitted and leave more than the cap.
 */
async function forgetBeyondCap(tx: Tx, customerId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${NEW_CHAT_SESSION_LOCK}, ${customerId})`);
  const kept = tx
    .select({ id: chatSessions.id })
    .from(chatSessions)
    .where(eq(chatSessions.customerId, customerId))
    .orderBy(desc(chatSessions.updatedAt), desc(chatSessions.createdAt))
    .limit(CHAT_SESSIONS_PER_CUSTOMER);
  await tx.delete(chatSessions).where(and(eq(chatSessions.customerId, customerId), notInArray(chatSessions.id, kept)));
}

export function createChatService(db: Db, clock: Clock, options: ChatServiceOptions): ChatService {
  return {
    async turn(customerId, { sessionId: given, inputMessage }) {
      const { reply, sessionId } = await withTx(db, async (tx) => {
        // A session is conversation state, not a fact: its commit need not wait for the disk (ADR 0140).
        await tx.execute(sql`set local synchronous_commit = off`);
        const now = clock.now();
        // The row lock serialises two turns of one session (double-clicked option, two tabs).
        const [row] = given ? await tx.select().from(chatSessions).where(eq(chatSessions.id, given)).for('update') : [];
        if (row && row.customerId !== customerId) throw forbidden('CHAT_SESSION_FORBIDDEN', CHAT_MSG.sessionForbidden);
        // Ids are the server's: an id it does not know (made up, or forgotten) starts a new conversation.
        const sessionId = row?.id ?? randomUUID();
        const expired = row !== undefined && now.getTime() - row.updatedAt.getTime() > CHAT_SESSION_IDLE_MS;
        const state = row && !expired ? stateOf(row) : initialState();
        const result = await runTurn(state, inputMessage, catalogFor(tx, clock, customerId, sessionId));
        const next = result.state;
        const values = {
          flow: next.flow,
          mood: next.mood,
          hobby: next.hobby,
          shownProductIds: next.shownIds,
          options: next.options,
          pending: next.pending,
          history: next.history,
          updatedAt: now,
        };
        await tx
          .insert(chatSessions)
          .values({ id: sessionId, customerId, createdAt: now, ...values })
          // A row another customer created in the same instant is never overwritten (ownership is decided by
          // whoever inserted first; the next turn then gets the 403).
          .onConflictDoUpdate({
            target: chatSessions.id,
            set: values,
            setWhere: eq(chatSessions.customerId, customerId),
          });
        if (!row) await forgetBeyondCap(tx, customerId);
        return { ...result, sessionId };
      });
      const rephrased = options.llm ? await options.llm.rephrase(reply.message) : null;
      return {
        message: rephrased ?? reply.message,
        products: reply.products.map(({ id: _id, ...p }) => ({
          ...p,
          image: mediaUrl(options.mediaBaseUrl, p.image) ?? p.image,
        })),
        flow: reply.flow as ChatFlow,
        sessionId,
        options: reply.options,
        quickMenu: reply.quickMenu,
      };
    },

    async clear(customerId, sessionId) {
      const [owner] = await db
        .select({ customerId: chatSessions.customerId })
        .from(chatSessions)
        .where(eq(chatSessions.id, sessionId));
      if (owner && owner.customerId !== customerId)
        throw forbidden('CHAT_SESSION_FORBIDDEN', CHAT_MSG.sessionForbidden);
      // Expired sessions of anyone go at the same time (housekeeping, cheap on the updated_at index).
      const cutoff = new Date(clock.now().getTime() - CHAT_SESSION_IDLE_MS);
      const removed = await db
        .delete(chatSessions)
        .where(and(eq(chatSessions.id, sessionId), eq(chatSessions.customerId, customerId)))
        .returning({ id: chatSessions.id });
      await db.delete(chatSessions).where(lt(chatSessions.updatedAt, cutoff));
      return { sessionId, cleared: removed.length > 0 };
    },
  };
}
