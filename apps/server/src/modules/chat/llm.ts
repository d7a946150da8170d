/*
 * The optional language model (docs/rules/chat.md#C6): any OpenAI-compatible chat-completions endpoint, configured by
 * environment and off by default. It only rephrases the rule engine's text; the rules stay the source of
 * truth, so a reply that drops or changes a number, times out (≤ 5 s) or fails in any way is discarded and
 * the rule answer is used.
 */

import type { Config } from '../../lib/config';

export interface ChatLlm {
  /** The rephrased text, or null to keep the rule engine's text. */
  rephrase(text: string): Promise<string | null>;
}

export interface LlmSettings {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

export const LLM_MAX_TIMEOUT_MS = 5_000;

const SYSTEM_PROMPT =
  '너는 오굿페이의 마스코트 오굿이야. 주어진 답변을 친근한 반말로 자연스럽게 다듬어. ' +
  '사실, 숫자, 금액, 메뉴 이름은 절대 바꾸거나 빼지 말고, 줄바꿈은 유지하고, 새로운 정보를 더하지 마. 다듬은 답변만 출력해.';

/** Every number in the original must survive (limits, days, points): a model may not invent or drop facts. */
export function keepsFacts(original: string, candidate: string): boolean {
  const numbers = original.match(/\d[\d,.]*/g) ?? [];
  const compact = candidate.replace(/\s/g, '');
  return numbers.every((n) => compact.includes(n));
}

export function createLlm(settings: LlmSettings): ChatLlm {
  const url = `${settings.baseUrl.replace(/\/$/, '')}/chat/completions`;
  const timeoutMs = Math.min(settings.timeoutMs, LLM_MAX_TIMEOUT_MS);
  return {
    async rephrase(text) {
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
          },
          body: JSON.stringify({
            model: settings.model,
            temperature: 0.3,
            messages: [
              { role: 'system', content: SYSTEM_PROMPT },
              { role: 'user', content: text },
            ],
          }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!response.ok) return null;
        const body = (await response.json()) as { choices?: Array<{ message?: { content?: unknown } }> };
        const content = body.choices?.[0]?.message?.content;
        if (typeof content !== 'string') return null;
        const candidate = content.trim();
        if (candidate.length === 0 || candidate.length > text.length * 3 + 200) return null;
        return keepsFacts(text, candidate) ? candidate : null;
      } catch {
        // Timeout, network, bad JSON: the rule answer stands.
        return null;
      }
    },
  };
}

/** The model from the environment, or null (the default): both a base URL and a model name are needed. */
export function chatLlmFromConfig(config: Config): ChatLlm | null {
  if (!config.CHAT_LLM_BASE_URL || !config.CHAT_LLM_MODEL) return null;
  return createLlm({
    baseUrl: config.CHAT_LLM_BASE_URL,
    apiKey: config.CHAT_LLM_API_KEY,
    model: config.CHAT_LLM_MODEL,
    timeoutMs: config.CHAT_LLM_TIMEOUT_MS,
  });
}
