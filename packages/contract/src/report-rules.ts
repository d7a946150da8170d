/**
 * Rule constants of the report (docs/rules/report.md): the OhGood score's weights and bands, the spending categories
 * with their keyword rules, and the advice thresholds. The server computes with them; the web reads the
 * category order, the window limits and the texts, so both always say the same.
 */

/* ---- OhGood score (report.md#D1) ---- */

export const SCORE_MIN = 300;
export const SCORE_MAX = 1000;

export const SCORE_FACTOR_KEYS = [
  'autoExtendedNow',
  'extendedNow',
  'autoExtensions12m',
  'suspended',
  'gradePoint',
  'limitUse',
  'purchases12m',
  'amount12m',
] as const;
export type ScoreFactorKey = (typeof SCORE_FACTOR_KEYS)[number];

/** Weight wᵢ of each factor; they sum to 1. */
export const SCORE_WEIGHTS: Record<ScoreFactorKey, number> = {
  autoExtendedNow: 0.22,
  extendedNow: 0.08,
  autoExtensions12m: 0.18,
  suspended: 0.18,
  gradePoint: 0.14,
  limitUse: 0.1,
  purchases12m: 0.06,
  amount12m: 0.04,
};

/** Korean label of each factor, and what the customer can do about it (the report's "how to raise it"). */
export const SCORE_FACTOR_TEXT: Record<ScoreFactorKey, { label: string; tip: string }> = {
  autoExtendedNow: {
    label: '이번 달 자동 연장',
    tip: '납부일(15일)까지 청구서를 납부하면 자동 연장되지 않아요.',
  },
  extendedNow: { label: '이번 달 연장 신청', tip: '연장 없이 기한 안에 납부하면 점수가 올라가요.' },
  autoExtensions12m: {
    label: '최근 12개월 자동 연장',
    tip: '자동 연장 기록은 12개월이 지나면 점수에서 빠져요.',
  },
  suspended: { label: '연체로 인한 이용 정지', tip: '연체된 청구서를 납부하면 정지가 바로 풀려요.' },
  gradePoint: {
    label: '등급 점수',
    tip: '기한 안에 1만 원을 납부할 때마다 등급 점수가 1점 올라가요.',
  },
  limitUse: { label: '한도 사용률', tip: '이번 달 한도의 30% 이하로 쓰면 이 항목의 감점이 없어요.' },
  purchases12m: { label: '최근 12개월 이용 횟수', tip: '오굿페이를 꾸준히 이용하면 이용 기록이 쌓여요.' },
  amount12m: {
    label: '최근 12개월 이용 금액',
    tip: '30만 원에서 2천만 원 사이의 꾸준한 이용이 가장 좋아요.',
  },
};

/** "12 months" in the score = the current KST month and the 11 before (report.md#D1). */
export const SCORE_MONTHS = 12;

/** Risk of a manual extension of the statement due this month (an auto-extension is 1). */
export const MANUAL_EXTENSION_RISK = 0.7;
/** Auto-extensions in 12 months at which that factor's risk is full. */
export const AUTO_EXTENSIONS_FULL_RISK = 3;
/** Purchases in 12 months at which that factor's risk is zero. */
export const PURCHASES_NO_RISK = 12;

export const SCORE_BANDS = ['A', 'B', 'C', 'D', 'E'] as const;
export type ScoreBand = (typeof SCORE_BANDS)[number];
/** Lowest score of each band; E is everything below D. */
export const SCORE_BAND_MIN: Record<Exclude<ScoreBand, 'E'>, number> = { A: 750, B: 650, C: 550, D: 450 };

/** Our one-liner per band, addressing the customer by name. */
export const SCORE_MESSAGES: Record<ScoreBand, (name: string) => string> = {
  A: (name) => `${name}님, 아주 훌륭해요! 지금처럼만 납부하면 최고의 신용 습관이에요.`,
  B: (name) => `${name}님, 좋은 흐름이에요. 조금만 더 챙기면 A등급이 눈앞이에요.`,
  C: (name) => `${name}님, 무난해요. 기한 안 납부로 점수를 한 단계 올려봐요.`,
  D: (name) => `${name}님, 조금 주의가 필요해요. 납부 일정부터 확인해볼까요?`,
  E: (name) => `${name}님, 지금은 회복이 먼저예요. 밀린 청구서를 납부하면 점수가 올라가요.`,
};

/* ---- Spending analysis (report.md#D3) ---- */

export const SPENDING_CATEGORIES = [
  '식비',
  '쇼핑/패션/뷰티',
  '고정비',
  '교통비',
  '생활',
  '여가/문화/교육',
  '기타',
] as const;
export type SpendingCategory = (typeof SPENDING_CATEGORIES)[number];
export const FALLBACK_CATEGORY = '기타' satisfies SpendingCategory;

export const ANALYSIS_WINDOW = { min: 1, max: 12, default: 3 } as const;

/**
 * Keyword rules for purchases whose merchant has no category. Each keyword adds its weight to its
 * category; the heaviest category wins (ties: category order). Specific names weigh more than generic
 * words, so e.g. '쿠팡이츠' (식비 3) beats the '쿠팡' inside it (쇼핑 2). Latin keywords match whole tokens
 * only ('KT' never matches inside 'KTX', 'CU' never inside 'CURRY').
 */
export const CATEGORY_KEYWORDS: Record<Exclude<SpendingCategory, '기타'>, Array<[keyword: string, weight: number]>> = {
  식비: [
    ['스타벅스', 3],
    ['배달의민족', 3],
    ['배민', 3],
    ['요기요', 3],
    ['쿠팡이츠', 3],
    ['이마트', 3],
    ['홈플러스', 3],
    ['맥도날드', 3],
    ['카페', 2],
    ['커피', 2],
    ['마트', 2],
    ['식당', 2],
    ['치킨', 2],
    ['피자', 2],
    ['베이커리', 2],
    ['도시락', 1],
  ],
  '쇼핑/패션/뷰티': [
    ['올리브영', 3],
    ['무신사', 3],
    ['지그재그', 3],
    ['11번가', 3],
    ['백화점', 3],
    ['쿠팡', 2],
    ['화장품', 2],
    ['의류', 2],
    ['신발', 2],
  ],
  고정비: [
    ['통신', 3],
    ['요금제', 3],
    ['SKT', 3],
    ['전기', 3],
    ['가스', 3],
    ['수도', 3],
    ['관리비', 3],
    ['보험', 3],
    ['월세', 3],
  ],
  교통비: [
    ['카카오T', 3],
    ['택시', 3],
    ['KTX', 3],
    ['SRT', 3],
    ['지하철', 3],
    ['주유', 3],
    ['고속버스', 3],
    ['버스', 2],
    ['교통', 2],
  ],
  생활: [
    ['GS25', 3],
    ['CU', 3],
    ['세븐일레븐', 3],
    ['편의점', 3],
    ['다이소', 3],
    ['약국', 2],
    ['세탁', 2],
  ],
  '여가/문화/교육': [
    ['CGV', 3],
    ['메가박스', 3],
    ['롯데시네마', 3],
    ['교보문고', 3],
    ['영화', 2],
    ['서점', 2],
    ['도서', 2],
    ['학원', 3],
    ['강의', 2],
    ['공연', 2],
  ],
};

/* ---- Advice (report.md#D4) ---- */

export const ADVICE_LEVELS = ['HIGH', 'MEDIUM', 'LOW'] as const;
export type AdviceLevel = (typeof ADVICE_LEVELS)[number];

export const ADVICE_RULES = {
  /** Month-over-month spending rise that earns a note, in percent. */
  spendingRisePercent: 20,
  /** Share of one category in this month's spending, in percent. */
  categorySharePercent: 40,
  /** Limit use, in percent. */
  limitUsePercent: 80,
  /** A statement due within this many days (D-0 … D-5). */
  dueSoonDays: 5,
  /** Points worth spending: 1 P = 1 KRW at checkout. */
  pointsWorthUsing: 1_000,
} as const;

/* ---- Texts shown by the web app: load failures, fallbacks and empty states ---- */

export const REPORT_MSG = {
  title: '오굿 리포트',
  loadFailed: '데이터 로드 실패: 잠시 후에 다시 시도해주세요.',
  noSpending: '소비 데이터가 없습니다.',
  noSpendingThisMonth: '해당 월의 소비 데이터가 없습니다.',
  retry: '다시 시도',
  analysisTitle: '소비 패턴 분석',
} as const;
