import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHAT_FLOWS, CHAT_MSG, type ChatFlow, FLOW_OPTIONS } from '@ohgood/contract/chat-rules';
import { expect, it } from 'vitest';
import { memoryCatalog } from '../../test/chat-catalog';
import { faqOf } from './analysis';
import { type ChatState, initialState, runTurn } from './engine';
import { prepare } from './text-match';

/*
 * The conversation corpus (corpus/utterances.tsv): real-sounding Korean input with the route each should
 * take. Prints the accuracy; at least 95 % must route as expected.
 */

interface Case {
  flow: ChatFlow;
  text: string;
  expected: string;
}

function load(): Case[] {
  const file = readFileSync(join(import.meta.dirname, 'corpus/utterances.tsv'), 'utf8');
  return file
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      const [flow, text, expected] = line.split('\t');
      if (!flow || text === undefined || !expected || !(CHAT_FLOWS as readonly string[]).includes(flow)) {
        throw new Error(`bad corpus line: ${line}`);
      }
      return { flow: flow as ChatFlow, text, expected: expected.trim() };
    });
}

/** The route a turn took, in the corpus's vocabulary. */
async function routeOf(flow: ChatFlow, text: string): Promise<string> {
  const state: ChatState = {
    ...initialState(),
    flow,
    options: [...FLOW_OPTIONS[flow]],
    mood: flow === 'mood_check' ? null : '좋아',
    hobby: ['choose', 'recommendation', 're-recommendation'].includes(flow) ? '게임' : null,
  };
  const catalog = memoryCatalog([1, 2, 3, 4, 5, 6].map((id) => ({ id, hobby: '게임', moods: ['좋아'], price: 9_000 })));
  const { route, reply, state: next } = await runTurn(state, text, catalog);
  switch (route.kind) {
    case 'option':
      return `option:${route.label}`;
    case 'quick_menu':
      return `quick:${route.menu.menu}`;
    case 'flow_mismatch':
      return 'mismatch';
    case 'faq':
      return `faq:${route.item}`;
    case 'question_guide':
      return 'guide';
    case 'start':
      return 'start';
    case 'stay':
      if (reply.message.startsWith(CHAT_MSG.unknown)) return 'unknown';
      if (flow === 'mood_check') return `mood:${next.mood}`;
      if (flow === 'hobby_check') return `hobby:${next.hobby}`;
      if (flow === 'choose') return 'recommend';
      if (flow === 'question') return `faq:${faqOf(prepare(text))}`;
      return 'more';
  }
}

it('routes at least 95 % of the corpus as expected', async () => {
  const cases = load();
  expect(cases.length).toBeGreaterThanOrEqual(150);
  const misses: string[] = [];
  for (const c of cases) {
    const got = await routeOf(c.flow, c.text);
    if (got !== c.expected) misses.push(`  [${c.flow}] "${c.text}": expected ${c.expected}, got ${got}`);
  }
  const accuracy = (cases.length - misses.length) / cases.length;
  console.log(
    `chat corpus: ${cases.length - misses.length}/${cases.length} routed as expected (${(accuracy * 100).toFixed(1)} %)` +
      (misses.length > 0 ? `\n${misses.join('\n')}` : ''),
  );
  expect(accuracy).toBeGreaterThanOrEqual(0.95);
});
