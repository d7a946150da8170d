import {
  type ChatFlow,
  FAQ_ITEMS,
  FAQ_KEYWORDS,
  type FaqItem,
  FORMER_OPTION_LABELS,
  HOBBIES,
  HOBBY_KEYWORDS,
  type Hobby,
  MOOD_KEYWORDS,
  type Mood,
  QUESTION_KEYWORDS,
  QUICK_MENUS,
  RECOMMEND_KEYWORDS,
} from '@ohgood/contract/chat-rules';
import { firstMatch, hasAnyKeyword, type PreparedText, prepare, visibleLength } from './text-match';

export type QuickMenuEntry = (typeof QUICK_MENUS)[number];

/** Where an input goes, with the step of the analysis order (docs/rules/chat.md#C3) that decided it. */
export type Route =
  | { step: 1; kind: 'option'; label: string }
  | { step: 2; kind: 'quick_menu'; menu: QuickMenuEntry }
  | { step: 3; kind: 'flow_mismatch' }
  | { step: 4; kind: 'faq'; item: FaqItem }
  | { step: 5; kind: 'question_guide' }
  | { step: 6; kind: 'start' }
  | { step: 7; kind: 'stay' }
  | { step: 8; kind: 'question_guide' }
  | { step: 9; kind: 'start' }
  | { step: 10; kind: 'question_guide' };

// Neutral before negative before positive: 나쁘지 않아 is neutral, 안 좋아 is negative, 좋아 positive.
const MOOD_ORDER: readonly Mood[] = ['그저그래', '안좋아', '좋아'];
const NEGATED_GOOD = ['좋지않', '좋진않', '안좋'];

export function moodOf(text: PreparedText): Mood | null {
  if (hasAnyKeyword(text, NEGATED_GOOD) && !hasAnyKeyword(text, MOOD_KEYWORDS.그저그래)) return '안좋아';
  return firstMatch(text, MOOD_KEYWORDS, MOOD_ORDER);
}

export function hobbyOf(text: PreparedText): Hobby | null {
  return firstMatch(text, HOBBY_KEYWORDS, HOBBIES);
}

// BNPL is what every question is about, so it is the least specific item: 'BNPL 연장 가능?' asks about 연장.
const FAQ_ORDER: readonly FaqItem[] = [...FAQ_ITEMS.filter((i) => i !== 'BNPL 이란?'), 'BNPL 이란?'];

export function faqOf(text: PreparedText): FaqItem | null {
  return firstMatch(text, FAQ_KEYWORDS, FAQ_ORDER);
}

export function quickMenuOf(text: PreparedText): QuickMenuEntry | null {
  return QUICK_MENUS.find((menu) => hasAnyKeyword(text, menu.keywords)) ?? null;
}

export function wantsRecommendation(text: PreparedText): boolean {
  return hasAnyKeyword(text, RECOMMEND_KEYWORDS);
}

export function isQuestionLike(text: PreparedText): boolean {
  return hasAnyKeyword(text, QUESTION_KEYWORDS);
}

/** Flows a conversation can rest in, where "stay in the current flow" applies. */
const RECOMMEND_FLOWS: ReadonlySet<ChatFlow> = new Set([
  'mood_check',
  'hobby_check',
  'choose',
  'recommendation',
  're-recommendation',
]);

/**
 * The analysis order (docs/rules/chat.md#C3), first match wins: 1 exact option, 2 quick-menu keyword, 3 flow mismatch,
 * 4 FAQ keyword, 5 question words, 6 mood/recommend words in init, 7 stay in the current flow, 8 '?',
 * 9 short input, 10 question guide. `options` are the buttons the user currently sees.
 */
export function analyse(input: string | PreparedText, flow: ChatFlow, options: readonly string[]): Route {
  const text = typeof input === 'string' ? prepare(input) : input;
  const wanted = FORMER_OPTION_LABELS[text.trimmed] ?? text.trimmed;
  const label = options.find((option) => option.toLowerCase() === wanted);
  if (label) return { step: 1, kind: 'option', label };

  const menu = quickMenuOf(text);
  if (menu) return { step: 2, kind: 'quick_menu', menu };

  const faq = faqOf(text);
  const asksQuestion = faq !== null || isQuestionLike(text);
  const wantsProducts = moodOf(text) !== null || wantsRecommendation(text);
  if (flow === 'question' && wantsProducts && faq === null) return { step: 3, kind: 'flow_mismatch' };
  if (RECOMMEND_FLOWS.has(flow) && asksQuestion && !inFlowAnswer(text, flow)) {
    return { step: 3, kind: 'flow_mismatch' };
  }

  if (faq) return { step: 4, kind: 'faq', item: faq };
  if (asksQuestion) return { step: 5, kind: 'question_guide' };
  if ((flow === 'init' || flow === 'start') && wantsProducts) return { step: 6, kind: 'start' };
  if (flow !== 'init' && flow !== 'start') return { step: 7, kind: 'stay' };
  if (text.hasQuestionMark) return { step: 8, kind: 'question_guide' };
  if (visibleLength(text) < 10) return { step: 9, kind: 'start' };
  return { step: 10, kind: 'question_guide' };
}

/**
 * A question word that is really the answer the flow asked for ("게임 어떻게 생각해? 게임!") does not
 * break the flow: in mood/hobby questions, a recognised mood or hobby wins over a general question word.
 */
function inFlowAnswer(text: PreparedText, flow: ChatFlow): boolean {
  if (faqOf(text) !== null) return false;
  if (flow === 'mood_check') return moodOf(text) !== null;
  if (flow === 'hobby_check') return hobbyOf(text) !== null;
  return false;
}
