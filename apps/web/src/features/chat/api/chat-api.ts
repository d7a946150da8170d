import { chatEndpoints as api, type ChatReply, type ChatRequest } from '@ohgood/contract/chat';
import { callEndpoint, LONG_TIMEOUT } from '../../../shared/api-client';

/**
 * POST /chat (docs/rules/chat.md#C1, #C2): one turn of the conversation, on the 30 s timeout like the other slow calls.
 */
export async function sendChat(body: ChatRequest & { sessionId: string }): Promise<ChatReply> {
  return (await callEndpoint(api.turn, { body, timeout: LONG_TIMEOUT })).data;
}

/** POST /chat/clear-session (docs/rules/chat.md#C1). */
export async function clearChatSession(sessionId: string): Promise<void> {
  await callEndpoint(api.clearSession, { body: { sessionId }, timeout: LONG_TIMEOUT });
}
