import { z } from 'zod';
import { CHAT_FLOWS, CHAT_INPUT_MAX, QUICK_MENUS } from './chat-rules';
import { defineEndpoint, enveloped } from './endpoint';

/**
 * A session id the client makes (docs/rules/chat.md#C1; the web app keeps a UUID in local storage) and sends on every
 * turn. It names a conversation of the token's customer only: the same id of another customer is another
 * conversation (docs/rules/chat.md#C1). The reply returns it.
 */
export const chatSessionId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, '세션 ID 형식이 올바르지 않습니다.');

export const chatFlow = z.enum(CHAT_FLOWS);

/** POST /chat (docs/rules/chat.md#C1, #C2). Without a sessionId the server names a new session and returns it. */
export const chatRequest = z
  .object({
    sessionId: chatSessionId.nullish(),
    inputMessage: z.string().trim().min(1).max(CHAT_INPUT_MAX),
    flow: chatFlow.default('init'),
  })
  .strip();
export type ChatRequest = z.input<typeof chatRequest>;

export const chatProduct = z.object({
  name: z.string(),
  price: z.number().int(),
  /** Relative media path; the web app joins it to the media base URL. */
  image: z.string(),
  url: z.string(),
  category: z.string(),
});
export type ChatProduct = z.infer<typeof chatProduct>;

const quickMenuKeys = QUICK_MENUS.map((m) => m.menu) as [string, ...string[]];

/** A navigation card: `path` null means the check-in roulette (a modal, not a page). */
export const chatQuickMenu = z.object({
  menu: z.enum(quickMenuKeys),
  title: z.string(),
  path: z.string().nullable(),
});
export type ChatQuickMenu = z.infer<typeof chatQuickMenu>;

/**
 * The reply's data: the original `{message, products, flow, sessionId}`, plus two additive fields (ADR 0025):
 * `options`, the buttons that lead on (usually the flow's own, e.g. '처음으로' when the catalogue runs
 * out), and `quickMenu`, a navigation card when the input asked to go somewhere.
 */
export const chatReply = z.object({
  message: z.string(),
  products: z.array(chatProduct),
  flow: chatFlow,
  sessionId: z.string(),
  options: z.array(z.string()),
  quickMenu: chatQuickMenu.nullable(),
});
export type ChatReply = z.infer<typeof chatReply>;
export const chatResponse = enveloped(chatReply);

/** POST /chat/clear-session (docs/rules/chat.md#C1). */
export const clearSessionRequest = z.object({ sessionId: chatSessionId }).strip();
export const clearSessionResponse = enveloped(z.object({ sessionId: z.string(), cleared: z.boolean() }));

export const chatEndpoints = {
  turn: defineEndpoint({
    method: 'POST',
    path: '/chat',
    body: chatRequest,
    response: chatResponse,
    access: 'customer',
    summary: '오굿이 챗봇: 한 턴 대화 (세션은 토큰의 고객에게 묶임)',
    tags: ['chat'],
  }),
  clearSession: defineEndpoint({
    method: 'POST',
    path: '/chat/clear-session',
    body: clearSessionRequest,
    response: clearSessionResponse,
    access: 'customer',
    summary: '오굿이 챗봇: 세션 초기화',
    tags: ['chat'],
  }),
};
