import { createHash, randomUUID } from 'node:crypto';
import { suspensionReasonOf } from '@ohgood/contract/bill-rules';
import type { ChatReply } from '@ohgood/contract/chat';
import {
  CHAT_FLOWS,
  CHAT_PRODUCTS_PER_TURN,
  CHAT_SESSION_IDLE_MS,
  type ChatFlow,
  HOBBIES,
  type Hobby,
  MOODS,
  type Mood,
} from '@ohgood/contract/chat-rules';
import { monthlyLimitOf } from '@ohgood/contract/grades';
import { kstMonth } from '@ohgood/contract/kst';
import { mediaUrl } from '@ohgood/contract/media-url';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type chatProducts, chatSessions, customers } from '../../db/schema';
import { type Executor, rowsOf, withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { type LimitBasis, limitLeft, owedSql } from '../bills/statements';
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
import { createSession, readSession, type SessionRow, updateSession } from './session-store';

export interface ChatService {
  turn(customerId: number, input: { sessionId?: string | null; inputMessage: string }): Promise<ChatReply>;
  clear(customerId: number, sessionId: string): Promise<{ sessionId: string; cleared: boolean }>;
}

export interface ChatServiceOptions {
  /** Joined to product image keys (MEDIA_BASE_URL), so a CDN works too. */
  mediaBaseUrl: string;
  llm?: ChatLlm | null;
}

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

type ProductRow = Omit<typeof chatProducts.$inferSelect, 'slug' | 'hobby' | 'createdAt'>;

/** A stable per-session order, so two sessions see the catalogue in different orders. */
function shuffleKey(sessionId: string, id: number): string {
  return createHash('sha1').update(`${sessionId}:${id}`).digest('hex');
}

/** A product of the hobby (null columns when the hobby has none) beside what the customer's limit needs. */
type CatalogRow = { [K in keyof ProductRow]: ProductRow[K] | null } & LimitBasis & { owed: string };

/**
 * Three unshown products of the hobby, within the customer's available limit (docs/rules/bills-and-grades.md
 * #B3: `limitLeft` of the limit basis and `owedSql`, as `availableLimit` reads them), mood matches first.
 * The catalogue and the limit come in one statement, written out like the session's (session-store.ts):
 * a recommending turn was the slowest of the chat benchmark's script by one round trip.
 */
function catalogFor(executor: Executor, clock: Clock, customerId: number, sessionId: string): CatalogPort {
  return {
    async suspension() {
      const [row] = await executor
        .select({ suspended: customers.suspended, staffSuspended: customers.staffSuspended })
        .from(customers)
        .where(eq(customers.id, customerId));
      // The reason /payment shows (bills service `status`).
      return suspensionReasonOf(row);
    },
    async recommend({ mood, hobby, excludeIds }: { mood: Mood; hobby: Hobby; excludeIds: readonly number[] }) {
      const shown = new Set(excludeIds);
      const found = await rowsOf<CatalogRow>(
        executor,
        sql`
        select p.id, p.name, p.price, p.image_key as "imageKey", p.url, p.category, p.moods,
               ${customers.gradePoint} as "gradePoint", ${customers.creditLimit} as "creditLimit",
               ${owedSql(customerId, kstMonth(clock.now()))} as owed
          from ${customers} left join chat_products p on p.hobby = ${hobby}
         where ${customers.id} = ${customerId}`,
      );
      const rows = found.filter((p): p is CatalogRow & ProductRow => p.id !== null && !shown.has(p.id));
      if (rows.length === 0) return { kind: 'exhausted' } satisfies RecommendOutcome;
      const basis = found[0];
      const limit = basis ? limitLeft(basis, basis.owed) : 0;
      const fitting = rows.filter((p) => p.price <= limit);
      if (fitting.length === 0) {
        const limitByStaff =
          basis?.creditLimit != null && monthlyLimitOf(basis) === basis.creditLimit ? basis.creditLimit : null;
        return { kind: 'none_within_limit', availableLimit: limit, limitByStaff } satisfies RecommendOutcome;
      }
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

/**
 * How many times a turn of an existing session runs on an unlocked read before it takes the session's row
 * lock (ADR 0245): only turns of one session sent together (a double tap, two tabs, a script) ever retry.
 */
const UNLOCKED_ATTEMPTS = 3;

export function createChatService(db: Db, clock: Clock, options: ChatServiceOptions): ChatService {
  /** The turn on the session as `row` holds it (none, or expired: a new conversation). */
  const turnOn = (
    executor: Executor,
    row: SessionRow | undefined,
    customerId: number,
    sessionId: string,
    input: string,
  ) => {
    const expired = row !== undefined && clock.now().getTime() - row.updatedAtMs > CHAT_SESSION_IDLE_MS;
    const state = row && !expired ? stateOf(row) : initialState();
    return runTurn(state, input, catalogFor(executor, clock, customerId, sessionId));
  };

  /**
   * A turn of an existing session: read without a lock, run, saved if the row is still as read (two
   * statements, no transaction). `missing` when there is no such session, `contended` when another turn of it
   * saved in between each time.
   */
  async function unlockedTurn(customerId: number, sessionId: string, input: string) {
    for (let attempt = 0; attempt < UNLOCKED_ATTEMPTS; attempt++) {
      const row = await readSession(db, customerId, sessionId, { lock: false });
      if (!row) return 'missing';
      const result = await turnOn(db, row, customerId, sessionId, input);
      if (await updateSession(db, row, result.state, clock.now())) return result;
    }
    return 'contended';
  }

  /**
   * A turn holding the session's row lock (`existing`), or starting the session and keeping the customer's
   * cap. A session another turn started meanwhile is updated by the start (docs/rules/chat.md#C1).
   */
  const lockedTurn = (customerId: number, sessionId: string, existing: boolean, input: string) =>
    withTx(db, async (tx) => {
      const now = clock.now();
      const row = existing ? await readSession(tx, customerId, sessionId, { lock: true }) : undefined;
      const result = await turnOn(tx, row, customerId, sessionId, input);
      if (row) await updateSession(tx, row, result.state, now);
      else await createSession(tx, sessionId, customerId, result.state, now);
      return result;
    });

  return {
    async turn(customerId, { sessionId: given, inputMessage }) {
      // The client names its session (docs/rules/chat.md#C1) and the customer of the token owns it: the same id of
      // another customer is that customer's own conversation. No id at all: the server names a new one.
      const sessionId = given ?? randomUUID();
      const unlocked = given ? await unlockedTurn(customerId, given, inputMessage) : 'missing';
      const { reply } =
        typeof unlocked === 'object'
          ? unlocked
          : await lockedTurn(customerId, sessionId, unlocked === 'contended', inputMessage);
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
      // Only the customer's own session of this id: another customer's of the same id is never touched.
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
