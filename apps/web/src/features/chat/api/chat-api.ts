import { chatEndpoints as api, type ChatReply, type ChatRequest } from '@ohgood/contract/chat';
import { callEndpoint, LONG_TIMEOUT } from '../../../shared/api-client';

/** POST /chat (spec §7): one turn of the conversation, on the 30 s timeout like the other slow calls. */
export async function sendChat(body: ChatRequest & { sessionId: string }): Promise<ChatReply> {
  return (await callEndpoint(api.turn, { body, timeout: LONG_TIMEOUT })).data;
}

/** POST /chat/clear-session (spec §7). */
export async function clearChatSession(sessionId: string): Promise<void> {
  await callEndpoint(api.clearSession, { body: { sessionId }, timeout: LONG_TIMEOUT });
}
