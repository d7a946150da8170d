import { chatEndpoints as api, type ChatReply, type ChatRequest } from '@ohgood/contract/chat';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint, LONG_TIMEOUT } from '../../../shared/api-client';

/*
 * The chat's calls are writes to the server's conversation session; it reads no cached data, so nothing is
 * invalidated. Both take the 30 s timeout like the other slow calls.
 */

/** POST /chat (docs/rules/chat.md#C1, #C2): one turn of the conversation. */
export function useChatTurn() {
  return useMutation({
    mutationFn: async (body: ChatRequest & { sessionId: string }): Promise<ChatReply> =>
      (await callEndpoint(api.turn, { body, timeout: LONG_TIMEOUT })).data,
  });
}

/** POST /chat/clear-session (docs/rules/chat.md#C1). */
export function useClearChatSession() {
  return useMutation({
    mutationFn: async (sessionId: string): Promise<void> => {
      await callEndpoint(api.clearSession, { body: { sessionId }, timeout: LONG_TIMEOUT });
    },
  });
}
