import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/api-client';
import { groupByDay } from '../../shared/group-by-day';
import { codeErrorMessage } from './components/code-errors';
import { limitGapText } from './components/limit-gap';
import { deletePointDigit, finalAmount, limitShort, maxUsablePoints, typePointDigit } from './components/payment-math';
import { matchesName, matchesPayment } from './pages/payment-details-page';
import { signedPoints } from './pages/point-history-page';

describe('payment modal arithmetic', () => {
  it('drops leading zeros and caps at min(price, points)', () => {
    expect(typePointDigit(0, '0', 5000, 800)).toBe(0);
    expect(typePointDigit(0, '7', 5000, 800)).toBe(7);
    expect(typePointDigit(75, '0', 5000, 800)).toBe(750);
    expect(typePointDigit(750, '0', 5000, 800)).toBe(800);
    expect(typePointDigit(3, '0', 20, 800)).toBe(20);
    expect(deletePointDigit(750)).toBe(75);
    expect(maxUsablePoints(300, 1000)).toBe(300);
  });

  it('suggests points for a limit gap only while unused points could cover part of it', () => {
    // 120,000원 on a 100,000원 balance: 20,000원 short.
    expect(limitGapText(100_000, 120_000, 0, 0)).toBe('20,000원 더 필요해요.');
    expect(limitGapText(100_000, 120_000, 0, 35)).toBe('20,000원 더 필요해요. 포인트를 쓰면 줄일 수 있어요.');
    // Every point already in use: nothing left to suggest.
    expect(limitGapText(100_000, 120_000, 35, 35)).toBe('19,965원 더 필요해요.');
    expect(limitGapText(100_000, 120_000, 20, 35)).toBe('19,980원 더 필요해요. 포인트를 쓰면 줄일 수 있어요.');
  });

  it('computes the final amount and the limit warning', () => {
    expect(finalAmount(4500, 500)).toBe(4000);
    expect(limitShort(3999, 4500, 500)).toBe(true);
    expect(limitShort(4000, 4500, 500)).toBe(false);
  });
});

describe('PIN error texts', () => {
  it.each([400, 404, 410])('%i reads as an invalid code', (status) => {
    expect(codeErrorMessage(new ApiError(status, 'VALIDATION_ERROR', 'whatever'))).toBe('유효하지않은 코드입니다.');
  });
  it('shows the server message for rate limits and reservations', () => {
    expect(codeErrorMessage(new ApiError(429, 'TOO_MANY_CODE_ATTEMPTS', '10분 후 다시 시도해주세요.'))).toBe(
      '10분 후 다시 시도해주세요.',
    );
  });
  it('reads an expired request as an invalid code by its code, whatever the status', () => {
    expect(codeErrorMessage(new ApiError(409, 'REQUEST_NOT_ACTIVE', '결제 요청이 만료되었거나 취소되었습니다.'))).toBe(
      '유효하지않은 코드입니다.',
    );
    expect(codeErrorMessage(new ApiError(409, 'REQUEST_RESERVED', '다른 고객이 결제 중인 요청입니다.'))).toBe(
      '다른 고객이 결제 중인 요청입니다.',
    );
  });
  it('falls back to the PIN failure text', () => {
    expect(codeErrorMessage(new ApiError(0, 'NETWORK_ERROR', 'net'))).toBe('PIN 인증에 실패했습니다.');
  });
});

describe('payment history search', () => {
  it('matches by text or Korean initial consonants', () => {
    expect(matchesName('스타벅스 강남점', '스타')).toBe(true);
    expect(matchesName('스타벅스 강남점', 'ㅅㅌㅂㅅ')).toBe(true);
    expect(matchesName('스타벅스 강남점', 'ㄱㄴㅈ')).toBe(true);
    expect(matchesName('카페라떼', 'ㅅㅌ')).toBe(false);
    expect(matchesName('Apple Store', 'apple')).toBe(true);
    expect(matchesName('아무거나', '  ')).toBe(true);
    // The merchant counts as much as the product: 스타벅스, CGV and ㅅㅌㅂ find a 아메리카노 bought there.
    const coffee = { merchant: '스타벅스', requestName: '아메리카노' };
    expect(matchesPayment(coffee, '스타벅스')).toBe(true);
    expect(matchesPayment(coffee, 'ㅅㅌㅂ')).toBe(true);
    expect(matchesPayment({ merchant: 'CGV', requestName: '영화 예매' }, 'cgv')).toBe(true);
    expect(matchesPayment(coffee, 'CGV')).toBe(false);
  });
});

describe('history formatting', () => {
  it('signs point amounts', () => {
    expect(signedPoints(1200)).toBe('+1,200P');
    expect(signedPoints(-50)).toBe('−50P');
  });
  it('groups by KST day, newest first, across a UTC midnight', () => {
    const groups = groupByDay(
      [
        { date: '2026-11-22T08:30:00+09:00' },
        { date: '2026-11-22T00:10:00+09:00' },
        { date: '2026-11-21T23:50:00+09:00' },
      ],
      (item) => item.date,
    );
    expect(groups.map((g) => [g.label, g.items.length])).toEqual([
      ['11월 22일 (일)', 2],
      ['11월 21일 (토)', 1],
    ]);
  });
});
