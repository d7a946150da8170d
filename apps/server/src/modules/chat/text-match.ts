/*
 * Keyword matching on Korean word boundaries (docs/rules/chat.md#C3): a keyword matches where a word begins
 * and ends either at a word's end or where a particle or ending follows (포인트는, 연장하고, 추천해줘).
 * It never matches a fragment inside another word: 음 not in 음악, 흠 not in 흠뻑, 픽 not in 픽업.
 * Spacing is ignored across words (추천 좀 = 추천좀, 결제 내역 = 결제내역), case too.
 */

import {
  FAQ_KEYWORDS,
  HOBBY_KEYWORDS,
  MOOD_KEYWORDS,
  QUESTION_KEYWORDS,
  RECOMMEND_KEYWORDS,
} from '@ohgood/contract/chat-rules';

/** First syllables of the particles and endings that may follow a keyword inside the same word. */
const FOLLOWERS = new Set(
  [
    ...'은는이가을를에의도만로으와과랑께서며야요좀다고면기게지죠냐니나네어아여인일임예까처부것',
    ...'하해했할함한합히되돼됐될됨된당받듣보봐본볼줘주좋싶같있없인용시세셨거걸건겠래랬래려란ㅋㅎㅠㅜ',
  ].map((c) => c),
);

export interface PreparedText {
  /** The whole input lower-cased with every space and punctuation mark removed. */
  compact: string;
  /** Offsets in `compact` where a word begins. */
  starts: Set<number>;
  /** Offsets in `compact` where a word ends (exclusive). */
  ends: Set<number>;
  /** Trimmed, NFC, lower-case original (for exact option matching). */
  trimmed: string;
  hasQuestionMark: boolean;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** Prepares an input once for many keyword checks. */
export function prepare(input: string): PreparedText {
  const trimmed = input.normalize('NFC').trim().toLowerCase().replace(/\s+/g, ' ');
  let compact = '';
  const starts = new Set<number>();
  const ends = new Set<number>();
  for (const match of trimmed.matchAll(WORD)) {
    starts.add(compact.length);
    compact += match[0];
    ends.add(compact.length);
  }
  return { compact, starts, ends, trimmed, hasQuestionMark: /[?？]/.test(trimmed) };
}

/**
 * Every keyword of the tables: a keyword may also end where another one begins, because compound nouns
 * are often written without a space (포인트적립, 연체이자).
 */
let vocabulary: string[] | null = null;
function compoundParts(): string[] {
  vocabulary ??= [
    ...Object.values(FAQ_KEYWORDS).flat(),
    ...Object.values(MOOD_KEYWORDS).flat(),
    ...Object.values(HOBBY_KEYWORDS).flat(),
    ...QUESTION_KEYWORDS,
    ...RECOMMEND_KEYWORDS,
    '방법',
    '신청',
    '기준',
    '내역',
  ]
    .map(compactKeyword)
    .filter((k) => k.length >= 2);
  return vocabulary;
}

const compacted = new Map<string, string>();

/** A keyword in the same shape as `compact` (memoised: the tables are fixed, turns are many). */
export function compactKeyword(keyword: string): string {
  let kw = compacted.get(keyword);
  if (kw === undefined) {
    kw = (keyword.normalize('NFC').toLowerCase().match(WORD) ?? []).join('');
    compacted.set(keyword, kw);
  }
  return kw;
}

/** The end of the word that contains offset `at` (exclusive). */
function wordEnd(text: PreparedText, at: number): number {
  let end = at;
  while (end < text.compact.length && !text.ends.has(end)) end += 1;
  return end;
}

/** True when `keyword` occurs at a word start and ends at a word end or before a particle/ending. */
export function hasKeyword(text: PreparedText, keyword: string): boolean {
  const kw = compactKeyword(keyword);
  if (kw.length === 0) return false;
  let from = text.compact.indexOf(kw);
  while (from !== -1) {
    if (text.starts.has(from)) {
      const after = from + kw.length;
      if (text.ends.has(after) || after === text.compact.length) return true;
      const next = text.compact[after] ?? '';
      // Latin keywords (bnpl, help) take Korean particles but not more letters (helpful, goods).
      if (FOLLOWERS.has(next) && wordEnd(text, after) > after) return true;
      if (compoundParts().some((part) => text.compact.startsWith(part, after))) return true;
    }
    from = text.compact.indexOf(kw, from + 1);
  }
  return false;
}

export function hasAnyKeyword(text: PreparedText, keywords: readonly string[]): boolean {
  return keywords.some((k) => hasKeyword(text, k));
}

/** The first key (in table order) whose keywords occur in the text. */
export function firstMatch<K extends string>(
  text: PreparedText,
  table: Readonly<Record<K, readonly string[]>>,
  order: readonly K[],
): K | null {
  return order.find((key) => hasAnyKeyword(text, table[key])) ?? null;
}

/** Length in characters, ignoring spaces (for the "short input" rule). */
export function visibleLength(text: PreparedText): number {
  return [...text.trimmed.replace(/\s/g, '')].length;
}
