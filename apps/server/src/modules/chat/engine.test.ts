import { BILL_RULES } from '@ohgood/contract/bill-rules';
import { CHAT_MSG, type ChatFlow, FAQ_ITEMS, FLOW_OPTIONS, HOBBIES, MOODS, OPTION } from '@ohgood/contract/chat-rules';
import { RULE_NUMBERS } from '@ohgood/contract/faq-phrases';
import { GRADE_POINTS, GRADES } from '@ohgood/contract/grades';
import { LIMITS } from '@ohgood/contract/limits';
import { describe, expect, it } from 'vitest';
import { memoryCatalog } from '../../test/chat-catalog';
import { analyse } from './analysis';
import { type ChatState, FLOWS, HISTORY_MAX, initialState, runTurn } from './engine';
import { FAQ_ANSWERS, faqAnswers } from './faq-answers';
import { hasKeyword, prepare } from './text-match';

const catalog = () =>
  memoryCatalog(
    HOBBIES.flatMap((hobby, h) =>
      Array.from({ length: 7 }, (_, i) => ({
        id: h * 100 + i,
        hobby,
        moods: [MOODS[i % 3] as (typeof MOODS)[number]],
        price: 5_000 + i * 10_000,
      })),
    ),
  );

const inFlow = (flow: ChatFlow, extra: Partial<ChatState> = {}): ChatState => ({
  ...initialState(),
  flow,
  options: [...FLOW_OPTIONS[flow]],
  ...extra,
});

async function say(state: ChatState, ...inputs: string[]) {
  const port = catalog();
  let result = await runTurn(state, inputs[0] as string, port);
  for (const input of inputs.slice(1)) result = await runTurn(result.state, input, port);
  return result;
}

describe('keyword matching on Korean word boundaries', () => {
  it.each([
    ['포인트는 어떻게 모아?', '포인트', true],
    ['연장하고 싶어', '연장', true],
    ['추천 좀', '추천좀', true],
    ['결제 내역', '결제내역', true],
    ['BNPL이 뭐야', 'bnpl', true],
    ['음악 좋아', '음', false],
    ['흠뻑 젖었어', '흠', false],
    ['픽업 가능?', '픽', false],
    ['책상 정리', '책', false],
    ['신용점수', '점수', false],
    ['helpful', 'help', false],
  ])('%s / %s → %s', (input, keyword, expected) => {
    expect(hasKeyword(prepare(input), keyword)).toBe(expected);
  });
});

describe('analysis order (C3), one case per step', () => {
  it('1: an exact option label wins over every keyword in it', () => {
    expect(analyse(' 포인트 ', 'question', FLOW_OPTIONS.question)).toMatchObject({ step: 1, label: '포인트' });
    expect(analyse('내 리포트 보기', 'choose', FLOW_OPTIONS.choose)).toMatchObject({ step: 1 });
  });
  it('2: a quick-menu phrase beats the FAQ keyword inside it', () => {
    expect(analyse('포인트 내역 보여줘', 'init', FLOW_OPTIONS.init)).toMatchObject({ step: 2 });
  });
  it('3: mood/recommend words in question, question words in a recommendation flow', () => {
    expect(analyse('우울해 추천해줘', 'question', FLOW_OPTIONS.question)).toMatchObject({ step: 3 });
    expect(analyse('연체되면 어떻게 돼?', 'mood_check', FLOW_OPTIONS.mood_check)).toMatchObject({ step: 3 });
    expect(analyse('왜 이렇게 비싸', 'recommendation', FLOW_OPTIONS.recommendation)).toMatchObject({ step: 3 });
  });
  it('3 does not fire when the flow gets the answer it asked for', () => {
    expect(analyse('게임이 뭐냐면 게임이지', 'hobby_check', FLOW_OPTIONS.hobby_check)).toMatchObject({ step: 7 });
  });
  it('4: an FAQ keyword gives the direct answer', () => {
    expect(analyse('포인트는 어떻게 모아?', 'init', FLOW_OPTIONS.init)).toMatchObject({ step: 4, item: '포인트' });
  });
  it('5: a general question word gives the question guide', () => {
    expect(analyse('궁금한 게 있어', 'init', FLOW_OPTIONS.init)).toMatchObject({ step: 5 });
  });
  it('6: mood or recommend words in init start the recommendation', () => {
    expect(analyse('기분 최고야 오늘 날씨가 너무 좋네요', 'init', FLOW_OPTIONS.init)).toMatchObject({ step: 6 });
    expect(analyse('추천해줘', 'init', FLOW_OPTIONS.init)).toMatchObject({ step: 6 });
  });
  it('7: inside a flow, other input stays in it', () => {
    expect(analyse('몰라', 'mood_check', FLOW_OPTIONS.mood_check)).toMatchObject({ step: 7 });
  });
  it('8: a question mark means a question', () => {
    expect(analyse('오늘 날씨 어때?', 'init', FLOW_OPTIONS.init)).toMatchObject({ step: 8 });
    expect(analyse('이건 뭐지？', 'init', FLOW_OPTIONS.init)).toMatchObject({ step: 8 });
  });
  it('9: short input (under 10 characters) starts', () => {
    expect(analyse('안녕 오굿아', 'init', FLOW_OPTIONS.init)).toMatchObject({ step: 9 });
  });
  it('10: anything else gets the question guide', () => {
    expect(analyse('흠뻑 젖었네 오늘 비가 너무 많이 왔어', 'init', FLOW_OPTIONS.init)).toMatchObject({ step: 10 });
  });
});

describe('flows and options', () => {
  it('every flow is in the registry and every reply carries options that lead on', async () => {
    for (const flow of Object.keys(FLOW_OPTIONS) as ChatFlow[]) {
      expect(FLOWS[flow]).toBeTypeOf('function');
      const { reply } = await say(inFlow(flow, { mood: '좋아', hobby: '게임' }), '으아아아');
      expect(reply.options.length).toBeGreaterThan(0);
    }
  });

  it('init options: 기분에 따른 추천 → mood_check; 자주하는 질문 → the seven FAQ options', async () => {
    const start = await say(initialState(), OPTION.moodRecommend);
    expect(start.reply).toMatchObject({ flow: 'mood_check', options: [...MOODS] });
    const faq = await say(initialState(), OPTION.faq);
    expect(faq.reply).toMatchObject({ flow: 'question', options: [...FAQ_ITEMS] });
    expect(faq.reply.options).toContain('계정 정지 해제법');
  });

  it.each(FAQ_ITEMS)('question option %s gets its own answer', async (item) => {
    const { reply } = await say(inFlow('question'), item);
    expect(reply.message).toBe(FAQ_ANSWERS[item]);
    expect(reply.flow).toBe('question');
  });

  it.each(MOODS)('mood option %s → hobby_check with the five hobbies', async (mood) => {
    const { reply, state } = await say(inFlow('mood_check'), mood);
    expect(state.mood).toBe(mood);
    expect(reply).toMatchObject({ flow: 'hobby_check', options: [...HOBBIES] });
  });

  it.each(HOBBIES)('hobby option %s → choose', async (hobby) => {
    const { reply, state } = await say(inFlow('hobby_check', { mood: '안좋아' }), hobby);
    expect(state).toMatchObject({ hobby, mood: '안좋아' });
    expect(reply).toMatchObject({ flow: 'choose', options: [OPTION.recommendProducts, OPTION.myReport] });
  });

  it('choose: 상품추천 → three products; 내 리포트 보기 → the report card', async () => {
    const chosen = inFlow('choose', { mood: '좋아', hobby: '운동' });
    const rec = await say(chosen, OPTION.recommendProducts);
    expect(rec.reply.flow).toBe('recommendation');
    expect(rec.reply.products).toHaveLength(3);
    expect(rec.reply.options).toEqual([OPTION.otherProducts]);
    const report = await say(chosen, OPTION.myReport);
    expect(report.reply.quickMenu).toEqual({ menu: 'dashboard', title: '오굿 리포트', path: '/dashboard' });
    expect(report.reply.flow).toBe('choose');
  });

  it('다른 상품 never repeats and says so when the catalogue runs out, offering 처음으로', async () => {
    const port = catalog();
    let { state, reply } = await runTurn(inFlow('choose', { mood: '좋아', hobby: '독서' }), '상품추천', port);
    const seen = reply.products.map((p) => p.id);
    for (let turn = 0; turn < 3; turn++) {
      ({ state, reply } = await runTurn(state, '다른 상품', port));
      if (reply.products.length === 0) break;
      expect(reply.flow).toBe('re-recommendation');
      for (const p of reply.products) expect(seen).not.toContain(p.id);
      seen.push(...reply.products.map((p) => p.id));
    }
    expect(new Set(seen).size).toBe(7);
    expect(reply.products).toHaveLength(0);
    expect(reply.message).toContain('다 보여줬어');
    expect(reply.options).toEqual([OPTION.backToStart]);
    const back = await runTurn(state, '처음으로', port);
    expect(back.reply).toMatchObject({ flow: 'init', options: [...FLOW_OPTIONS.init] });
    expect(back.state.shownIds).toEqual([]);
  });

  it('says so when nothing fits the available limit', async () => {
    const port = memoryCatalog([{ id: 1, hobby: '게임', moods: ['좋아'], price: 50_000 }], 10_000);
    const { reply } = await runTurn(inFlow('choose', { mood: '좋아', hobby: '게임' }), '상품추천', port);
    expect(reply.products).toEqual([]);
    expect(reply.message).toContain('10,000원');
    expect(reply.options).toContain(OPTION.backToStart);
  });

  it('flow_mismatch: 처음으로 returns to init; 하던 이야기 계속하기 restores the flow', async () => {
    const mismatch = await say(inFlow('mood_check'), '연체되면 어떻게 돼?');
    expect(mismatch.reply).toMatchObject({
      flow: 'flow_mismatch',
      options: [OPTION.backToStart, OPTION.keepFlow],
    });
    const port = catalog();
    const back = await runTurn(mismatch.state, OPTION.backToStart, port);
    expect(back.reply).toMatchObject({ flow: 'init', message: CHAT_MSG.greeting });
    const keep = await runTurn(mismatch.state, OPTION.keepFlow, port);
    expect(keep.reply).toMatchObject({ flow: 'mood_check', options: [...MOODS] });
    expect(keep.state.pending).toBeNull();
    // A client still sending the former jargon label gets the same option.
    const former = await runTurn(mismatch.state, '현재 플로우 유지하기', port);
    expect(former.reply).toMatchObject({ flow: 'mood_check', options: [...MOODS] });
  });

  it('puts the right particle after an inserted hobby (음악감상을, 영화보기를)', async () => {
    const music = await say(inFlow('hobby_check', { mood: '좋아' }), '음악감상');
    expect(music.reply.message).toContain('음악감상을 좋아하는구나');
    const movies = await say(inFlow('hobby_check', { mood: '좋아' }), '영화보기');
    expect(movies.reply.message).toContain('영화보기를 좋아하는구나');
    expect(`${music.reply.message}${movies.reply.message}`).not.toContain('(를)');
  });

  it('never repeats a sentence of the bubble before: the mood is answered once', async () => {
    const port = catalog();
    const mood = await runTurn(inFlow('mood_check'), '좋아', port);
    const hobby = await runTurn(mood.state, '게임', port);
    const before = new Set(mood.reply.message.split('\n'));
    expect(hobby.reply.message.split('\n').filter((line) => before.has(line))).toEqual([]);
    expect(hobby.reply.message).toBe('게임을 좋아하는구나. 상품을 추천해 줄까, 아니면 내 리포트를 볼래?');
  });

  it('keep hands the pending input to the resumed flow when it is an answer there', async () => {
    const mismatch = await say(inFlow('question'), '기분 좋아');
    const keep = await runTurn(mismatch.state, OPTION.keepFlow, catalog());
    expect(keep.reply.flow).toBe('question');
    expect(keep.reply.options).toEqual([...FAQ_ITEMS]);
  });

  it('unknown input inside a flow: the apology and the same options', async () => {
    const { reply } = await say(inFlow('hobby_check', { mood: '좋아' }), '책상 정리');
    expect(reply.message.startsWith(CHAT_MSG.unknown)).toBe(true);
    expect(reply).toMatchObject({ flow: 'hobby_check', options: [...HOBBIES] });
  });

  it('free text carries mood and hobby straight through (우울한데 게임 추천해줘 → choose)', async () => {
    const { reply, state } = await say(initialState(), '우울한데 게임 추천해줘');
    expect(state).toMatchObject({ mood: '안좋아', hobby: '게임' });
    expect(reply.flow).toBe('choose');
  });

  it('a typed server option word in init starts the right flow instead of failing (C3)', async () => {
    const { reply, state } = await say(initialState(), '좋아');
    expect(reply.flow).toBe('hobby_check');
    expect(state.mood).toBe('좋아');
  });

  it('quick menus keep the current flow and options; check-in has no path (opens the roulette)', async () => {
    const { reply } = await say(inFlow('hobby_check', { mood: '좋아' }), '출석체크 할래');
    expect(reply.quickMenu).toEqual({ menu: 'checkin', title: '출석 체크', path: null });
    expect(reply).toMatchObject({ flow: 'hobby_check', options: [...HOBBIES] });
  });

  it('keeps a short history', async () => {
    let state = initialState();
    for (let i = 0; i < 15; i++) state = (await runTurn(state, '안녕', catalog())).state;
    expect(state.history).toHaveLength(HISTORY_MAX);
    expect(state.history.at(-2)).toEqual({ role: 'user', text: '안녕' });
  });
});

describe('FAQ answers come from the rule constants', () => {
  it('grades, limits and rates', () => {
    for (const g of GRADES) {
      expect(FAQ_ANSWERS['오굿 스코어 기준']).toContain(`${g.label} ${g.min}~${g.max}점`);
      expect(FAQ_ANSWERS['오굿 스코어 기준']).toContain(`${g.pointPercent}%`);
    }
  });
  it('due dates, extension, penalties, suspension and points', () => {
    expect(FAQ_ANSWERS['BNPL 이란?']).toContain(`${BILL_RULES.dueDay}일`);
    expect(FAQ_ANSWERS['기간 연장']).toContain(`${BILL_RULES.autoExtensionDay}일에 자동으로 연장`);
    expect(FAQ_ANSWERS['기간 연장']).toContain(`${GRADE_POINTS.autoExtensionPenalty}점`);
    expect(FAQ_ANSWERS['연체 패널티']).toContain(`${GRADE_POINTS.overduePenalty}점`);
    expect(FAQ_ANSWERS['연체 패널티']).toContain('이자나 연체료는 없어');
    expect(FAQ_ANSWERS['계정 정지 해제법']).toContain('바로 자동으로 풀려');
    expect(FAQ_ANSWERS.포인트).toContain(`${LIMITS.rouletteValues[0]}~50P`);
    expect(FAQ_ANSWERS.포인트).toContain(`하루 최대 ${LIMITS.dailyWatchPointLimit}P`);
    expect(FAQ_ANSWERS.포인트).toContain('1분에 10P');
    expect(FAQ_ANSWERS['BNPL 이란?']).toContain('납부일 오전 10시에 연결 계좌에서 자동으로 출금');
    expect(FAQ_ANSWERS['기간 연장']).toContain('연체 전까지 매일 다시 시도');
  });
  it('change when a rule number changes', () => {
    const changed = faqAnswers({
      ...RULE_NUMBERS,
      bill: { ...RULE_NUMBERS.bill, dueDay: 20, lateFeeKrw: 3_000 },
      gradePoints: { ...RULE_NUMBERS.gradePoints, krwPerPoint: 25_000, overduePenalty: 33 },
      points: { ...RULE_NUMBERS.points, rouletteValues: [7, 70], dailyWatchLimit: 250 },
      autopay: { debitHour: 14, reminderDays: 5 },
    });
    expect(changed['BNPL 이란?']).toContain('납부일 오후 2시에');
    expect(changed['BNPL 이란?']).toContain('5일 전과 당일');
    expect(changed['BNPL 이란?']).toContain('다음 달 20일에 한 번에 납부');
    expect(changed['연체 패널티']).toContain('등급 점수가 33점 깎이고');
    expect(changed['연체 패널티']).toContain('연체료는 3,000원이야');
    expect(changed['바로 납부하는 법']).toContain('25,000원마다 등급 점수 1점');
    expect(changed.포인트).toContain('하루 한 번 7~70P');
    expect(changed.포인트).toContain('하루 최대 250P');
  });
});
