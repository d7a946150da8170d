import { describe, expect, it } from 'vitest';
import { analyzeSpending, periodLabel, rankCategories, windowMonths } from './analysis';
import { categoryOf, classifyByKeywords } from './categorize';

describe('categories (report.md#D3)', () => {
  it('takes the merchant’s category first, whatever the item is called', () => {
    expect(categoryOf({ merchantCategory: '생활', requestName: '스타벅스 카드 충전', merchantName: 'GS25' })).toBe(
      '생활',
    );
    expect(categoryOf({ merchantCategory: '기타', requestName: 'CGV 관람권', merchantName: '동네세탁소' })).toBe(
      '기타',
    );
  });

  it.each([
    ['스타벅스 아메리카노', '식비'],
    ['동네 카페 라떼', '식비'],
    ['배달의민족 주문', '식비'],
    ['이마트 장보기', '식비'],
    ['카카오T 택시', '교통비'],
    ['KTX 서울-부산', '교통비'],
    ['CGV 관람권', '여가/문화/교육'],
    ['메가박스 팝콘', '여가/문화/교육'],
    ['교보문고 도서', '여가/문화/교육'],
    ['GS25 삼각김밥', '생활'],
    ['CU 편의점', '생활'],
    ['쿠팡 로켓배송', '쇼핑/패션/뷰티'],
    ['올리브영 선크림', '쇼핑/패션/뷰티'],
    ['5G 통신 요금', '고정비'],
    ['전기 요금', '고정비'],
    ['도시가스', '고정비'],
  ])('without a merchant category, the keyword rules put "%s" in %s', (requestName, category) => {
    expect(categoryOf({ merchantCategory: null, requestName, merchantName: '알 수 없는 가게' })).toBe(category);
  });

  it('lets no generic keyword swallow a more specific one', () => {
    // '쿠팡이츠' (식비 3) contains '쿠팡' (쇼핑 2): the specific name wins.
    expect(classifyByKeywords('쿠팡이츠 주문')).toBe('식비');
    // Latin keywords match whole tokens: 'KTX' is not the telecom 'KT', 'CURRY' is not 'CU'.
    expect(classifyByKeywords('ktx 승차권')).toBe('교통비');
    expect(classifyByKeywords('CURRY HOUSE')).toBeNull();
    // Two categories' words: the heavier total wins (택시 3 + 교통 2 over 카페 2).
    expect(classifyByKeywords('카페 앞 택시 교통')).toBe('교통비');
  });

  it('falls back to the merchant’s name, then to 기타; an unknown merchant category counts as none', () => {
    expect(categoryOf({ merchantCategory: null, requestName: '아메리카노', merchantName: '스타벅스 역삼점' })).toBe(
      '식비',
    );
    expect(categoryOf({ merchantCategory: null, requestName: '상품', merchantName: '무명 상점' })).toBe('기타');
    expect(categoryOf({ merchantCategory: '잡화', requestName: '영화 예매', merchantName: '무명' })).toBe(
      '여가/문화/교육',
    );
  });
});

describe('spending analysis (report.md#D3)', () => {
  it('covers consecutive months ending with the current one, zero-filled, across a year end', () => {
    const result = analyzeSpending([{ month: '2026-12', category: '식비', amount: 5_000 }], '2027-02', 4);
    expect(result.months).toEqual(['2026-11', '2026-12', '2027-01', '2027-02']);
    expect(result.selectedMonth).toBe('2027-02');
    expect(result.period).toBe('2026년 11월 ~ 2027년 2월');
    expect(result.monthly['2026-11']).toEqual({ totalSpend: 0, categories: [] });
    expect(result.monthly['2027-01']).toEqual({ totalSpend: 0, categories: [] });
    expect(result.monthly['2026-12']?.totalSpend).toBe(5_000);
  });

  it('ignores lines outside the window and labels the period', () => {
    const result = analyzeSpending(
      [
        { month: '2026-08', category: '식비', amount: 1_000 },
        { month: '2026-09', category: '생활', amount: 2_000 },
      ],
      '2026-11',
      3,
    );
    expect(result.period).toBe('9월 ~ 11월');
    expect(Object.keys(result.monthly)).toEqual(['2026-09', '2026-10', '2026-11']);
    expect(result.monthly['2026-09']?.categories).toEqual([{ name: '생활', amount: 2_000, percentage: 100, rank: 1 }]);
    expect(periodLabel(windowMonths('2026-11', 1))).toBe('11월');
    expect(windowMonths('2026-11', 12)).toHaveLength(12);
  });

  it('sums per category, amount descending, one-decimal shares, equal amounts sharing a rank', () => {
    const result = analyzeSpending(
      [
        { month: '2026-11', category: '교통비', amount: 10_000 },
        { month: '2026-11', category: '식비', amount: 20_000 },
        { month: '2026-11', category: '생활', amount: 10_000 },
        { month: '2026-11', category: '식비', amount: 10_000 },
        { month: '2026-11', category: '기타', amount: 5_000 },
      ],
      '2026-11',
      1,
    );
    expect(result.monthly['2026-11']).toEqual({
      totalSpend: 55_000,
      categories: [
        { name: '식비', amount: 30_000, percentage: 54.5, rank: 1 },
        { name: '교통비', amount: 10_000, percentage: 18.2, rank: 2 },
        { name: '생활', amount: 10_000, percentage: 18.2, rank: 2 },
        { name: '기타', amount: 5_000, percentage: 9.1, rank: 4 },
      ],
    });
  });

  it('leaves out categories with nothing spent (a purchase paid fully with points bills 0)', () => {
    expect(rankCategories(new Map([['식비', 0]]))).toEqual([]);
  });
});
