import { describe, expect, it } from 'vitest';
import { describeChange } from './audit-change';

/**
 * The audit trail's before → after, as the server writes each action's rows (apps/server/src/modules/ops), read
 * as a person would: Korean words for states, won for amounts, KST minutes for instants.
 */

const customer = (suspended: boolean, staffSuspended: boolean, overdueLifted = false) => ({
  customerId: 5,
  suspended,
  staffSuspended,
  overdueLifted,
});

/** Every action's real shape and how it reads. */
const ROWS: Array<[string, unknown, unknown, string]> = [
  [
    'customer.note',
    null,
    { noteId: 4, channel: 'CALL', outcome: 'PROMISED', promiseDate: '2026-11-25' },
    '연락 전화, 결과 납부 약속, 납부 약속일 2026-11-25',
  ],
  [
    'customer.note',
    null,
    { noteId: 5, channel: 'MESSAGE', outcome: 'NO_ANSWER', promiseDate: null },
    '연락 메시지, 결과 받지 않음, 납부 약속일 없음',
  ],
  ['customer.lift', customer(true, true), customer(false, false), '결제 정지 → 해제, 운영자 정지 → 해제'],
  ['customer.lift', customer(true, false), customer(false, false, true), '결제 정지 → 해제, 연체 중 결제 안 됨 → 허용'],
  ['customer.suspend', customer(false, false), customer(true, true), '결제 정상 → 정지, 운영자 정지 없음 → 정지'],
  [
    'customer.limit',
    { limit: 100_000, creditLimit: null },
    { limit: 50_000, creditLimit: 50_000 },
    '월 한도 100,000원 → 50,000원',
  ],
  [
    'customer.limit',
    { limit: 50_000, creditLimit: 50_000 },
    { limit: 100_000, creditLimit: null },
    '월 한도 50,000원 → 100,000원',
  ],
  ['customer.reveal', null, { field: 'account' }, '본 항목 계좌'],
  [
    'customer.revoke-sessions',
    { sessionsRevokedAt: null },
    { sessionsRevokedAt: '2026-11-28T04:37:12.345Z' },
    '세션 끊은 시각 없음 → 2026-11-28 13:37',
  ],
  [
    'customer.reset-lockouts',
    [
      { kind: 'login-fail:account', count: 5 },
      { kind: 'pay-code-fail', count: 3 },
    ],
    [],
    '잠금 2건 → 없음',
  ],
  [
    'payment.refund',
    { paymentId: 31, status: 'PAID' },
    { paymentId: 31, status: 'REFUNDED' },
    '결제 #31: 결제 완료 → 환불',
  ],
  ['creator.strike', { strikes: 1 }, { strikes: 2 }, '경고 1회 → 2회'],
  [
    'creator.upload-ban',
    { uploadBannedUntil: null },
    { uploadBannedUntil: '2026-12-05T04:37:00.000Z', days: 7, endsOn: '2026-12-05' },
    '업로드 금지 없음 → 2026-12-05 13:37까지, 기간 7일',
  ],
  ['moderation.hide', { state: 'HIDDEN', autoHidden: true }, { state: 'HIDDEN' }, '자동 숨김 → 숨김'],
  ['moderation.hide', { state: 'OPEN', autoHidden: false }, { state: 'HIDDEN' }, '검토 대기 → 숨김'],
  ['moderation.dismiss', { state: 'OPEN', autoHidden: false }, { state: 'CLOSED' }, '검토 대기 → 종결'],
  ['staff.role', { role: 'SUPPORT' }, { role: 'RISK' }, '역할 상담 (SUPPORT) → 리스크 (RISK)'],
  [
    'staff.create',
    null,
    { email: 'new@ops.ohgood.kr', name: '홍길동', role: 'MODERATOR' },
    '이메일 new@ops.ohgood.kr, 이름 홍길동, 역할 모더레이터 (MODERATOR)',
  ],
  ['staff.disable', { disabled: false }, { disabled: true }, '사용 중 → 중지'],
  ['merchant.create', null, { name: '동네 카페', category: null }, '이름 동네 카페, 분류 없음'],
  ['merchant.disable', { disabled: false }, { disabled: true }, '사용 중 → 중지'],
  ['merchant.rotate-key', null, null, ''],
  [
    'customer.search',
    null,
    { kind: 'email', queryLength: 14, queryHash: 'cafeaa655b9c0e91a8d37bdb18060b85', results: 1, resultIds: [1] },
    '검색 이메일, 검색어 14자, 해시 cafe-aa65…, 결과 1명, 찾은 고객 #1',
  ],
  [
    'customer.search',
    null,
    { kind: 'name', queryLength: 4, queryHash: 'c8cc53580547aa', results: 0, resultIds: [] },
    '검색 이름 일부, 검색어 4자, 해시 c8cc-5358…, 결과 0명, 찾은 고객 없음',
  ],
];

describe('an audit row’s change', () => {
  it.each(ROWS)('%s reads as a person would: %#', (action, before, after, words) => {
    expect(describeChange(before, after, action)).toBe(words);
  });

  it('never shows true, false, null, undefined or an ungrouped number, even for a field it has no words for', () => {
    const odd = describeChange(
      { flagged: true, score: 12_345, note: null, at: '2026-11-28T00:00:00.000Z' },
      { flagged: false, score: 67_890, note: 'x', at: '2026-11-29T00:00:00.000Z', extra: [1, 2] },
    );
    expect(odd).toBe(
      'flagged 예 → 아니요, score 12,345 → 67,890, note 없음 → x, at 2026-11-28 09:00 → 2026-11-29 09:00, extra 2건',
    );
    for (const [action, before, after] of ROWS) {
      expect(describeChange(before, after, action)).not.toMatch(/true|false|null|undefined|(?<![\d-])\d{4,}(?![\d-])/);
    }
  });
});
