import {
  CATEGORY_KEYWORDS,
  FALLBACK_CATEGORY,
  SPENDING_CATEGORIES,
  type SpendingCategory,
} from '@ohgood/contract/report-rules';

const LATIN_TOKEN = /^[A-Za-z0-9]+$/;
const isLatinLetter = (ch: string | undefined) => ch !== undefined && /[A-Za-z]/.test(ch);

/** Whether `text` contains `keyword`; Latin keywords only as whole tokens (so 'KT' is not found in 'KTX'). */
function contains(text: string, keyword: string): boolean {
  const haystack = text.toUpperCase();
  const needle = keyword.toUpperCase();
  if (!LATIN_TOKEN.test(keyword)) return haystack.includes(needle);
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    if (!isLatinLetter(haystack[at - 1]) && !isLatinLetter(haystack[at + needle.length])) return true;
  }
  return false;
}

const KEYWORD_CATEGORIES = SPENDING_CATEGORIES.filter(
  (category): category is Exclude<SpendingCategory, typeof FALLBACK_CATEGORY> => category !== FALLBACK_CATEGORY,
);

/** The heaviest category by keyword weights, or null when no keyword matches. */
export function classifyByKeywords(text: string): SpendingCategory | null {
  let best: SpendingCategory | null = null;
  let bestWeight = 0;
  // Category order breaks ties: the first category to reach the top weight keeps it.
  for (const category of KEYWORD_CATEGORIES) {
    const weight = CATEGORY_KEYWORDS[category].reduce(
      (sum, [keyword, w]) => (contains(text, keyword) ? sum + w : sum),
      0,
    );
    if (weight > bestWeight) {
      best = category;
      bestWeight = weight;
    }
  }
  return best;
}

const isCategory = (value: string | null): value is SpendingCategory =>
  value !== null && (SPENDING_CATEGORIES as readonly string[]).includes(value);

/**
 * A purchase's category (report.md#D3): its merchant's, when the merchant has one of ours. Otherwise the
 * keyword rules on the request name, then on the merchant's name (the item often names nothing, e.g.
 * '아메리카노 외 1건' at '스타벅스 강남점'), else 기타.
 */
export function categoryOf(purchase: {
  merchantCategory: string | null;
  requestName: string;
  merchantName: string;
}): SpendingCategory {
  if (isCategory(purchase.merchantCategory)) return purchase.merchantCategory;
  return classifyByKeywords(purchase.requestName) ?? classifyByKeywords(purchase.merchantName) ?? FALLBACK_CATEGORY;
}
