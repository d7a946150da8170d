import type { SuspensionReason } from '@ohgood/contract/bill-rules';
import type { ChatProduct, ChatQuickMenu } from '@ohgood/contract/chat';
import {
  CHAT_MSG,
  type ChatFlow,
  FAQ_ITEMS,
  type FaqItem,
  FLOW_OPTIONS,
  HOBBIES,
  type Hobby,
  MOODS,
  type Mood,
  OPTION,
  QUICK_MENUS,
} from '@ohgood/contract/chat-rules';
import { won } from '@ohgood/contract/number-format';
import { withParticle } from '@ohgood/contract/particles';
import { analyse, faqOf, hobbyOf, moodOf, type QuickMenuEntry, type Route, wantsRecommendation } from './analysis';
import { FAQ_ANSWERS, SUSPENSION_ANSWERS } from './faq-answers';
import { hasAnyKeyword, type PreparedText, prepare } from './text-match';

/*
 * The chat engine: pure rules, no I/O of its own. A registry of named flows, each a small step function
 * (state, input) → turn; the analysis order (docs/rules/chat.md#C3) decides which one runs. The only outside fact it
 * needs, the products, comes through the CatalogPort the service provides.
 */

export interface HistoryEntry {
  role: 'user' | 'bot';
  text: string;
}

export interface ChatState {
  flow: ChatFlow;
  mood: Mood | null;
  hobby: Hobby | null;
  /** Catalogue ids already shown in this session: 다른 상품 never repeats them. */
  shownIds: number[];
  /** The buttons the user currently sees (exact option matching uses them). */
  options: string[];
  /** The input that caused a flow mismatch, kept for '하던 이야기 계속하기'. */
  pending: { input: string; flow: ChatFlow; options: string[] } | null;
  history: HistoryEntry[];
}

export const HISTORY_MAX = 20;

export function initialState(): ChatState {
  return {
    flow: 'init',
    mood: null,
    hobby: null,
    shownIds: [],
    options: [...FLOW_OPTIONS.init],
    pending: null,
    history: [],
  };
}

export interface CatalogProduct extends ChatProduct {
  id: number;
}

export type RecommendOutcome =
  | { kind: 'ok'; products: CatalogProduct[] }
  /** `limitByStaff`: the monthly limit risk set, when it is the one in force (docs/rules/operations.md#O8). */
  | { kind: 'none_within_limit'; availableLimit: number; limitByStaff: number | null }
  | { kind: 'exhausted' };

export interface CatalogPort {
  recommend(query: { mood: Mood; hobby: Hobby; excludeIds: readonly number[] }): Promise<RecommendOutcome>;
  /** Why the customer's payments are suspended now, if they are: an overdue bill or an operator. */
  suspension(): Promise<SuspensionReason | null>;
}

export interface ChatTurnReply {
  message: string;
  products: CatalogProduct[];
  flow: ChatFlow;
  options: string[];
  quickMenu: ChatQuickMenu | null;
}

export interface TurnResult {
  state: ChatState;
  reply: ChatTurnReply;
  route: Route;
}

interface StepInput {
  raw: string;
  text: PreparedText;
}

/** What a step decides: the reply and the state fields it changes. */
interface Turn {
  message: string;
  flow: ChatFlow;
  options?: readonly string[];
  products?: CatalogProduct[];
  quickMenu?: ChatQuickMenu | null;
  patch?: Partial<Omit<ChatState, 'flow' | 'options' | 'history'>>;
  /** False when the step did not understand the input (it answered with the apology). */
  understood?: boolean;
}

type FlowStep = (state: ChatState, input: StepInput, catalog: CatalogPort) => Promise<Turn>;

const PROMPT: Readonly<Record<ChatFlow, string>> = {
  init: '무엇을 도와줄까?',
  start: '오늘 기분은 어때?',
  question: '궁금한 걸 아래에서 골라줘!',
  flow_mismatch: '처음으로 돌아갈까, 아니면 하던 대화를 계속할까?',
  mood_check: '오늘 기분은 어때?',
  hobby_check: '요즘 즐기는 취미는 뭐야?',
  choose: '이제 뭘 해볼까?',
  recommendation: '다른 상품도 보고 싶으면 말해줘!',
  're-recommendation': '다른 상품도 보고 싶으면 말해줘!',
};

const MOOD_REPLY: Readonly<Record<Mood, string>> = {
  좋아: '기분 좋은 날이구나! 나도 덩달아 신나!',
  그저그래: '그저 그런 날도 있지. 작은 선물로 기분 전환해 보자!',
  안좋아: '많이 힘들었구나. 오굿이가 토닥토닥 해줄게.',
};

const RECOMMEND_INTRO: Readonly<Record<Mood, string>> = {
  좋아: '신나는 기분을 더 신나게 해줄',
  그저그래: '평범한 하루에 활력을 줄',
  안좋아: '지친 마음을 달래줄',
};

/** Labels that work from anywhere, even when their button is not on screen. */
const ALWAYS_AVAILABLE = [OPTION.moodRecommend, OPTION.faq, OPTION.backToStart];

const MORE_WORDS = ['다른', '더', '또', '다음', '새로운', 'more'];
const PRODUCT_WORDS = ['상품', '물건', '아이템', '쇼핑'];

const unknown = (state: ChatState, flow: ChatFlow = state.flow): Turn => ({
  message: `${CHAT_MSG.unknown}\n${PROMPT[flow]}`,
  flow,
  options: flow === state.flow ? state.options : FLOW_OPTIONS[flow],
  understood: false,
});

const greeting = (): Turn => ({
  message: CHAT_MSG.greeting,
  flow: 'init',
  patch: { mood: null, hobby: null, shownIds: [], pending: null },
});

const questionGuide = (): Turn => ({
  message: '자주 묻는 질문들이야. 궁금한 걸 골라 주거나 편하게 물어봐!',
  flow: 'question',
});

/**
 * The FAQ's answer; asked how to lift a suspension, a suspended customer hears about their own: an operator's
 * is not lifted by paying, an overdue one is (docs/rules/chat.md#C5).
 */
async function faqAnswer(item: FaqItem, catalog: CatalogPort): Promise<Turn> {
  if (item === '계정 정지 해제법') {
    const reason = await catalog.suspension();
    if (reason) return { message: SUSPENSION_ANSWERS[reason], flow: 'question' };
  }
  return { message: FAQ_ANSWERS[item], flow: 'question' };
}

function quickMenuTurn(state: ChatState, menu: QuickMenuEntry): Turn {
  const where = menu.path === null ? '룰렛을 돌려서 오늘의 포인트를 받아 가!' : '아래 카드를 누르면 바로 이동해.';
  return {
    message: `${menu.title} 메뉴로 안내할게. ${where}`,
    flow: state.flow,
    options: state.options,
    quickMenu: { menu: menu.menu, title: menu.title, path: menu.path },
  };
}

const reportMenu = QUICK_MENUS.find((m) => m.menu === 'dashboard') as QuickMenuEntry;

/** Begins (or continues) the recommendation with whatever mood and hobby the input already names. */
function beginRecommendation(text: PreparedText | null): Turn {
  const mood = (text && moodOf(text)) ?? null;
  const hobby = (text && hobbyOf(text)) ?? null;
  const patch = { mood, hobby, shownIds: [] as number[], pending: null };
  if (mood && hobby) return chooseTurn(mood, hobby, patch);
  if (mood) return { message: `${MOOD_REPLY[mood]}\n${PROMPT.hobby_check}`, flow: 'hobby_check', patch };
  return { message: `좋아, 오늘의 추천을 찾아볼게!\n${PROMPT.mood_check}`, flow: 'mood_check', patch };
}

/**
 * The mood's reply is said once: with the hobby when both arrive in one message, never again after the
 * mood was answered in the bubble before.
 */
function chooseTurn(mood: Mood, hobby: Hobby, patch: Turn['patch'] = {}, moodAnswered = false): Turn {
  const hobbyLine = `${withParticle(hobby, '을/를')} 좋아하는구나. 상품을 추천해 줄까, 아니면 내 리포트를 볼래?`;
  return {
    message: moodAnswered ? hobbyLine : `${MOOD_REPLY[mood]}\n${hobbyLine}`,
    flow: 'choose',
    patch: { ...patch, mood, hobby },
  };
}

async function recommend(state: ChatState, catalog: CatalogPort, more: boolean): Promise<Turn> {
  const { mood, hobby } = state;
  if (!mood) return { message: PROMPT.mood_check, flow: 'mood_check' };
  if (!hobby) return { message: PROMPT.hobby_check, flow: 'hobby_check' };
  const outcome = await catalog.recommend({ mood, hobby, excludeIds: state.shownIds });
  const flow: ChatFlow = more ? 're-recommendation' : 'recommendation';
  if (outcome.kind === 'exhausted') {
    return {
      message: `준비한 ${hobby} 상품은 이제 다 보여줬어! 처음으로 돌아가서 다른 취미도 골라볼래?`,
      flow,
      options: [OPTION.backToStart],
    };
  }
  if (outcome.kind === 'none_within_limit') {
    const limit = won(outcome.availableLimit);
    // A limit risk lowered is said as such, so the customer does not take it for their grade's ('원' takes '으로').
    const byStaff =
      outcome.limitByStaff === null ? '' : `\n월 한도는 운영 검토로 ${won(outcome.limitByStaff)}으로 조정돼 있어.`;
    return {
      message: `지금 남은 한도(${limit}) 안에서 살 수 있는 ${hobby} 상품이 없어. 이번 달 결제를 납부하면 한도가 바로 돌아와!${byStaff}`,
      flow,
      options: [OPTION.backToStart, OPTION.myReport],
    };
  }
  const intro = more ? `다른 ${hobby} 상품도 찾아왔어!` : `${RECOMMEND_INTRO[mood]} ${hobby} 상품 3가지를 골라봤어.`;
  return {
    message: `${intro}\n남은 한도 안에서 살 수 있는 것만 골랐어.`,
    flow,
    products: outcome.products,
    patch: { shownIds: [...state.shownIds, ...outcome.products.map((p) => p.id)] },
  };
}

/** The registry: one small step per flow, used when the input stays in that flow (analysis step 7). */
export const FLOWS: Readonly<Record<ChatFlow, FlowStep>> = {
  init: async () => greeting(),
  start: async (_state, input) => beginRecommendation(input.text),
  question: async (state, input, catalog) => {
    const item = faqOf(input.text);
    return item ? faqAnswer(item, catalog) : unknown(state, 'question');
  },
  flow_mismatch: async (state) => unknown(state, 'flow_mismatch'),
  mood_check: async (state, input) => {
    const mood = moodOf(input.text);
    if (!mood) return unknown(state, 'mood_check');
    const hobby = hobbyOf(input.text) ?? state.hobby;
    if (hobby) return chooseTurn(mood, hobby);
    return { message: `${MOOD_REPLY[mood]}\n${PROMPT.hobby_check}`, flow: 'hobby_check', patch: { mood } };
  },
  hobby_check: async (state, input) => {
    const hobby = hobbyOf(input.text);
    if (!hobby) return unknown(state, 'hobby_check');
    const mood = moodOf(input.text);
    if (mood && mood !== state.mood) return chooseTurn(mood, hobby);
    return chooseTurn(state.mood ?? '그저그래', hobby, {}, state.mood !== null);
  },
  choose: async (state, input, catalog) => {
    if (wantsRecommendation(input.text) || hasAnyKeyword(input.text, PRODUCT_WORDS)) {
      return recommend(state, catalog, false);
    }
    return unknown(state, 'choose');
  },
  recommendation: async (state, input, catalog) => more(state, input, catalog),
  're-recommendation': async (state, input, catalog) => more(state, input, catalog),
};

async function more(state: ChatState, input: StepInput, catalog: CatalogPort): Promise<Turn> {
  if (hasAnyKeyword(input.text, MORE_WORDS) || wantsRecommendation(input.text)) {
    return recommend(state, catalog, true);
  }
  return unknown(state);
}

/** What pressing (or typing exactly) an option label does. */
async function pressOption(label: string, state: ChatState, input: StepInput, catalog: CatalogPort): Promise<Turn> {
  switch (label) {
    case OPTION.moodRecommend:
      return beginRecommendation(null);
    case OPTION.faq:
      return questionGuide();
    case OPTION.backToStart:
      return greeting();
    case OPTION.keepFlow:
      return keepFlow(state, catalog);
    case OPTION.recommendProducts:
      return recommend(state, catalog, false);
    case OPTION.otherProducts:
      return recommend(state, catalog, true);
    case OPTION.myReport:
      return quickMenuTurn(state, reportMenu);
  }
  if ((FAQ_ITEMS as readonly string[]).includes(label)) return faqAnswer(label as FaqItem, catalog);
  if ((MOODS as readonly string[]).includes(label)) return FLOWS.mood_check(state, input, catalog);
  if ((HOBBIES as readonly string[]).includes(label)) return FLOWS.hobby_check(state, input, catalog);
  return unknown(state);
}

/** '하던 이야기 계속하기': back to the interrupted flow, which gets the pending input as its own. */
async function keepFlow(state: ChatState, catalog: CatalogPort): Promise<Turn> {
  const pending = state.pending;
  if (!pending) return greeting();
  const resumed: ChatState = { ...state, flow: pending.flow, options: pending.options, pending: null };
  const turn = await FLOWS[pending.flow](resumed, { raw: pending.input, text: prepare(pending.input) }, catalog);
  if (turn.understood !== false) return { ...turn, patch: { ...turn.patch, pending: null } };
  return {
    message: `좋아, 하던 대화를 계속하자!\n${PROMPT[pending.flow]}`,
    flow: pending.flow,
    options: pending.options,
    patch: { pending: null },
  };
}

function mismatchTurn(state: ChatState, raw: string): Turn {
  const doing = state.flow === 'question' ? '자주하는 질문' : '기분에 따른 추천';
  return {
    message: `지금은 ${withParticle(doing, '을/를')} 하고 있었어. 다른 이야기로 넘어가려면 처음으로 돌아가야 해.\n${PROMPT.flow_mismatch}`,
    flow: 'flow_mismatch',
    patch: { pending: { input: raw, flow: state.flow, options: state.options } },
  };
}

async function decide(route: Route, state: ChatState, input: StepInput, catalog: CatalogPort): Promise<Turn> {
  switch (route.kind) {
    case 'option':
      return pressOption(route.label, state, input, catalog);
    case 'quick_menu':
      return quickMenuTurn(state, route.menu);
    case 'flow_mismatch':
      return mismatchTurn(state, input.raw);
    case 'faq':
      return faqAnswer(route.item, catalog);
    case 'question_guide':
      return questionGuide();
    case 'start':
      return beginRecommendation(input.text);
    case 'stay':
      return FLOWS[state.flow](state, input, catalog);
  }
}

/** One turn: analyse the input against the current state, run the chosen step, return the new state. */
export async function runTurn(state: ChatState, raw: string, catalog: CatalogPort): Promise<TurnResult> {
  const input = { raw, text: prepare(raw) };
  const route = analyse(input.text, state.flow, [...state.options, ...ALWAYS_AVAILABLE]);
  const turn = await decide(route, state, input, catalog);
  const options = [...(turn.options ?? FLOW_OPTIONS[turn.flow])];
  const next: ChatState = {
    ...state,
    ...turn.patch,
    flow: turn.flow,
    options,
    history: [
      ...state.history,
      { role: 'user' as const, text: raw },
      { role: 'bot' as const, text: turn.message },
    ].slice(-HISTORY_MAX),
  };
  return {
    state: next,
    route,
    reply: {
      message: turn.message,
      products: turn.products ?? [],
      flow: turn.flow,
      options,
      quickMenu: turn.quickMenu ?? null,
    },
  };
}
