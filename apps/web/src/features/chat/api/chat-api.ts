import type { ChatReply, ChatRequest } from '@ohgood/contract/chat';
import { apiLong } from '../../../shared/api-client';

/** POST /chat (spec §7): one turn of the conversation. The 30 s client, like the other slow calls. */
export function sendChat(request: ChatRequest & { sessionId: string }): Promise<ChatReply> {
  return apiLong.post<ChatReply>('/chat', request);
}

/** POST /chat/clear-session (spec §7). */
export function clearChatSession(sessionId: string): Promise<unknown> {
  return apiLong.post('/chat/clear-session', { sessionId });
}
