import { z } from 'zod';
import { defineEndpoint, enveloped } from './endpoint';

/*
 * Autopay rules (docs/rules/bills-and-grades.md#B15–#B17) as numbers: the server's job, the FAQ, the chatbot
 * and the screens read them from here.
 */
export const AUTOPAY_RULES = {
  /** The daily debit runs at this KST minute of the day (10:00), after the morning reminder. */
  debitMinute: 10 * 60,
  /** A bank that answered `unavailable` is asked again this many minutes later, the same day. */
  unavailableRetryMinutes: 30,
  /** How long one instance holds an attempt while it waits for the bank. */
  leaseMinutes: 2,
  /** A bank call that has not answered by then is "unknown": asked again later with the same key. */
  bankTimeoutSeconds: 10,
  /** When an unknown answer is asked again. */
  unknownRetryMinutes: 10,
  /** How long a claim waits for a customer's row another transaction holds before moving on to the next. */
  customerLockWaitMs: 1_000,
  /** When a debit whose customer was busy is tried again. */
  busyRetryMinutes: 1,
  /**
   * No new debit of a statement within this many hours after one failed: a catch-up's missed day and that
   * day's own run never debit (and tell the customer) twice within hours (bills-and-grades.md#B19).
   */
  failedRestHours: 20,
} as const;

/** What the bank answered a debit. */
export const DEBIT_RESULTS = ['paid', 'insufficient_funds', 'account_closed', 'unavailable'] as const;
export type DebitResult = (typeof DEBIT_RESULTS)[number];

/** The Korean reason shown for a failed debit, and what to do about it. */
export const DEBIT_FAILURE_TEXT: Record<Exclude<DebitResult, 'paid'>, string> = {
  insufficient_funds: '연결 계좌의 잔액이 부족해요. 잔액을 채워 두면 내일 다시 출금하고, 지금 바로 납부할 수도 있어요.',
  account_closed: '연결 계좌를 사용할 수 없어요. 납부하기에서 직접 납부해 주세요.',
  unavailable: '은행 점검으로 출금하지 못했어요. 잠시 후 다시 시도해요.',
};

export const autopaySetting = z.object({
  autopay: z.boolean(),
  /** The masked debit account and its bank code. */
  account: z.string(),
  accountName: z.string(),
});
export type AutopaySetting = z.infer<typeof autopaySetting>;

export const autopayUpdate = z.object({ autopay: z.boolean() }).strict();

export const AUTOPAY_MSG = {
  on: '자동 납부를 켰어요. 납부일에 연결 계좌에서 출금해요.',
  off: '자동 납부를 껐어요. 납부일까지 직접 납부해 주세요.',
  /** What the confirm sheet says happens instead. */
  offConfirm:
    '자동 납부를 끄면 납부일에 출금하지 않아요. 15일까지 직접 납부하지 않으면 16일에 자동 연장(등급 포인트 −5)되고, 말일까지 미납이면 연체(−20)와 이용 정지가 돼요.',
} as const;

export const autopayEndpoints = {
  get: defineEndpoint({
    method: 'GET',
    path: '/api/payment/autopay',
    response: enveloped(autopaySetting),
    access: 'customer',
    summary: '자동 납부 설정',
    tags: ['bills'],
  }),
  set: defineEndpoint({
    method: 'PUT',
    path: '/api/payment/autopay',
    body: autopayUpdate,
    response: enveloped(autopaySetting),
    access: 'customer',
    summary: '자동 납부 켜기/끄기',
    tags: ['bills'],
  }),
} as const;
