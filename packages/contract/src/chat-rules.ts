/*
 * The chatbot's vocabulary (docs/rules/chat.md#C2, #C3): flows, option labels, keyword tables, quick menus,
 * timings and texts. Zod-free, so the chat page imports it without the schema runtime; the server's engine
 * reads the same tables, so the buttons and the analysis can never disagree.
 */

export const CHAT_FLOWS = [
  'init',
  'start',
  'question',
  'flow_mismatch',
  'mood_check',
  'hobby_check',
  'choose',
  'recommendation',
  're-recommendation',
] as const;
export type ChatFlow = (typeof CHAT_FLOWS)[number];

export const MOODS = ['좋아', '그저그래', '안좋아'] as const;
export type Mood = (typeof MOODS)[number];

export const HOBBIES = ['게임', '독서', '음악감상', '운동', '영화보기'] as const;
export type Hobby = (typeof HOBBIES)[number];

/** The seven FAQ items, in the order of the question options. */
export const FAQ_ITEMS = [
  '오굿 스코어 기준',
  '연체 패널티',
  'BNPL 이란?',
  '기간 연장',
  '바로 납부하는 법',
  '포인트',
  '계정 정지 해제법',
] as const;
export type FaqItem = (typeof FAQ_ITEMS)[number];

export const OPTION = {
  moodRecommend: '기분에 따른 추천',
  faq: '자주하는 질문',
  backToStart: '처음으로',
  keepFlow: '하던 이야기 계속하기',
  recommendProducts: '상품추천',
  myReport: '내 리포트 보기',
  otherProducts: '다른 상품',
} as const;

/**
 * Labels the buttons had before they were put in plain words; a client that still sends one gets the
 * option it meant (the exact-option step reads through this table).
 */
export const FORMER_OPTION_LABELS: Readonly<Record<string, string>> = {
  '현재 플로우 유지하기': OPTION.keepFlow,
  '즉시 납부 플로우': '바로 납부하는 법',
};

/** Options shown for each flow (labels exact, in this order). */
export const FLOW_OPTIONS: Readonly<Record<ChatFlow, readonly string[]>> = {
  init: [OPTION.moodRecommend, OPTION.faq],
  start: [OPTION.moodRecommend, OPTION.faq],
  question: FAQ_ITEMS,
  flow_mismatch: [OPTION.backToStart, OPTION.keepFlow],
  mood_check: MOODS,
  hobby_check: HOBBIES,
  choose: [OPTION.recommendProducts, OPTION.myReport],
  recommendation: [OPTION.otherProducts],
  're-recommendation': [OPTION.otherProducts],
};

/** FAQ keywords (docs/rules/chat.md#C3). */
export const FAQ_KEYWORDS: Readonly<Record<FaqItem, readonly string[]>> = {
  '오굿 스코어 기준': ['오굿 스코어', '오굿스코어', '스코어', '점수', '신용점수', '평점', '등급', '레벨'],
  '연체 패널티': ['연체', '연채', '패널티', '페널티', '벌금', '연체료', '연체이자', '미납', '과태료'],
  'BNPL 이란?': ['bnpl', '후불', '후불결제', '나중결제', '분할', '할부', '분납'],
  '기간 연장': ['연장', '연기', '유예', '기한연장', '기간연장', '납부유예', '미루'],
  '바로 납부하는 법': ['즉시납부', '즉시결제', '바로결제', '선결제', '선납', '즉납', '부분납부', '바로납부'],
  포인트: ['포인트', '적립', '리워드', '적립금', '캐시백', '마일리지'],
  '계정 정지 해제법': ['정지', '계정정지', '정지해제', '잠금해제', '이용제한', '제한해제', '잠김', '잠겼'],
};

export const MOOD_KEYWORDS: Readonly<Record<Mood, readonly string[]>> = {
  좋아: [
    '좋아',
    '좋다',
    '좋은',
    '좋음',
    '기분좋',
    '행복',
    '기뻐',
    '기쁘',
    '즐거',
    '신나',
    '설레',
    '뿌듯',
    '만족',
    '힐링',
    '최고',
    '대박',
    '상쾌',
    'good',
    'happy',
  ],
  그저그래: [
    '그저그래',
    '그냥그래',
    '그냥저냥',
    '보통',
    '평범',
    '그럭저럭',
    '무난',
    '애매',
    '나쁘지않',
    '쏘쏘',
    'soso',
  ],
  안좋아: [
    '안좋아',
    '안좋',
    '별로',
    '나쁘',
    '나빠',
    '우울',
    '슬퍼',
    '슬픈',
    '속상',
    '짜증',
    '화나',
    '스트레스',
    '불안',
    '걱정',
    '답답',
    '피곤',
    '지쳤',
    '지친',
    '번아웃',
    '멘붕',
    '꿀꿀',
    'bad',
    'sad',
  ],
};

export const HOBBY_KEYWORDS: Readonly<Record<Hobby, readonly string[]>> = {
  게임: ['게임', '겜', '롤', '닌텐도', '플스', 'game', 'gaming'],
  독서: ['독서', '책', '소설', '읽기', 'book', 'reading'],
  음악감상: ['음악감상', '음악', '노래', '음감', '플레이리스트', 'music'],
  운동: ['운동', '헬스', '러닝', '요가', '등산', '축구', '필라테스', 'gym', 'workout'],
  영화보기: ['영화보기', '영화', '넷플릭스', '드라마', '넷플', 'movie', 'movies'],
};

export const RECOMMEND_KEYWORDS = [
  '추천',
  '추천해줘',
  '추천좀',
  '골라줘',
  '사고싶',
  '갖고싶',
  '뭐사지',
  '뭘살까',
  '살까',
  '가성비',
  '인기템',
  '찾아줘',
  '선물',
  'recommend',
] as const;

export const QUESTION_KEYWORDS = [
  '질문',
  '궁금',
  '뭐야',
  '뭔데',
  '무엇',
  '어떻게',
  '어케',
  '왜',
  '얼마',
  '언제',
  '방법',
  '절차',
  '조건',
  '정책',
  '알려줘',
  '설명',
  '문의',
  '도와줘',
  'help',
  'faq',
] as const;

export const QUICK_MENUS = [
  {
    menu: 'payment',
    title: '납부',
    path: '/payment',
    keywords: ['납부하기', '납부 어디', '돈 내기', '결제하려면', '납부하려면', '청구서 보기'],
  },
  {
    menu: 'payment-history',
    title: '결제 내역',
    path: '/payment/details',
    keywords: ['결제내역', '결제 내역', '거래내역', '사용내역', '구매내역', '주문내역', '결제 기록'],
  },
  {
    menu: 'dashboard',
    title: '오굿 리포트',
    path: '/dashboard',
    keywords: ['리포트', '오굿리포트', '대시보드', '분석', '내 현황'],
  },
  {
    menu: 'point-history',
    title: '포인트 내역',
    path: '/point/history',
    keywords: [
      '포인트내역',
      '포인트 내역',
      '포인트 조회',
      '내 포인트',
      '포인트 잔액',
      '쌓인 포인트',
      '얼마나 쌓였',
      '얼마나 모였',
    ],
  },
  {
    menu: 'checkin',
    title: '출석 체크',
    path: null,
    keywords: ['출석', '출석체크', '출첵', '체크인', '룰렛', 'attendance', 'check-in', 'checkin'],
  },
] as const;
export type QuickMenu = (typeof QUICK_MENUS)[number]['menu'];

/** Presentation timings: how fast the bot types and how its messages and options are staggered. */
export const CHAT_TIMINGS = {
  typingMsPerChar: 20,
  productStaggerMs: 200,
  questionGuideDelayMs: 800,
  faqAnswerDelayMs: 1000,
  quickMenuDelayMs: 500,
  optionStaggerMs: 100,
} as const;

/** Idle time after which a session is forgotten (docs/rules/chat.md#C1). */
export const CHAT_SESSION_IDLE_MS = 60 * 60 * 1000;
/** Open conversations one customer keeps; starting another forgets the least recently used. */
export const CHAT_SESSIONS_PER_CUSTOMER = 5;
/** Products per recommendation turn. */
export const CHAT_PRODUCTS_PER_TURN = 3;
export const CHAT_INPUT_MAX = 500;

/**
 * Texts the chat page shows itself: the greeting of `init` and its three failure messages (server problem, temporary
 * error, not understood).
 */
export const CHAT_MSG = {
  title: '오굿이와 대화하기',
  greeting:
    '안녕! 나는 오굿이야.\n기분에 맞는 상품을 골라 주거나, 오굿페이에 대해 궁금한 걸 알려줄게.\n무엇을 도와줄까?',
  serverError: '앗, 서버에 문제가 생겼어. 잠시 후에 다시 말 걸어줄래?',
  temporaryError: '일시적인 오류가 났어. 한 번만 다시 보내줄래?',
  unknown: '미안, 무슨 말인지 잘 모르겠어. 다른 말로 한 번 더 말해줄래?',
  placeholder: '오굿이에게 메시지를 보내 보세요',
  send: '보내기',
  viewProduct: '상품 보기',
} as const;
