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

/**
 * The words a customer agrees to when turning autopay on (출금 동의). Each change of the words gets a new
 * version; the consent record keeps the version the customer saw (docs/rules/bills-and-grades.md#B21).
 */
export const AUTOPAY_CONSENT = {
  version: '2026-11-v1',
  title: '자동 납부 출금 동의',
  text: '오굿페이가 매월 납부일(15일, 연장한 달은 연장된 납부일)에 연결 계좌에서 청구 금액을 출금하는 데 동의합니다. 출금은 결제하신 금액만큼만 이뤄지며, 언제든 자동 납부를 꺼서 동의를 철회할 수 있어요.',
} as const;

/**
 * 1원 인증 (docs/rules/bills-and-grades.md#B22, ADR 0198): the sandbox bank deposits 1원 whose depositor name is
 * `depositorPrefix` followed by a `codeDigits`-digit code; the customer types the code.
 */
export const VERIFICATION_RULES = {
  depositorPrefix: '오굿',
  codeDigits: 4,
  /** A code is good for this long after it was sent. */
  codeMinutes: 10,
  /** Wrong codes allowed per code; the last wrong one locks it and a new code must be requested. */
  maxTries: 5,
  /** A new code can be asked for this long after the last one. */
  resendSeconds: 60,
  /** At most this many codes per customer in any 24 hours. */
  codesPerDay: 5,
} as const;

/** off: the customer turned it off; pending: on, but not debited until `pendingReason` is done; on: debited. */
export const AUTOPAY_STATES = ['off', 'pending', 'on'] as const;
export type AutopayState = (typeof AUTOPAY_STATES)[number];

/** consent: no consent to the current words for the current account; verification: 1원 인증 not done. */
export const AUTOPAY_PENDING_REASONS = ['consent', 'verification'] as const;
export type AutopayPendingReason = (typeof AUTOPAY_PENDING_REASONS)[number];

/** A code sent and not yet used up: when it ends, how many tries are left, when a new one may be asked. */
export const openVerification = z.object({
  expiresAt: z.string(),
  triesLeft: z.number().int().min(0),
  resendAt: z.string(),
});
export type OpenVerification = z.infer<typeof openVerification>;

export const autopaySetting = z.object({
  /** The customer's switch (on even while pending). */
  autopay: z.boolean(),
  /** The masked debit account and its bank code. */
  account: z.string(),
  accountName: z.string(),
  /** Whether the due date's debit really happens: only `on` is debited. */
  state: z.enum(AUTOPAY_STATES),
  pendingReason: z.enum(AUTOPAY_PENDING_REASONS).nullable(),
  /** The linked account passed 1원 인증 for this customer. */
  verified: z.boolean(),
  /** The words version of the consent in force, if any. */
  consentVersion: z.string().nullable(),
  /** The code waiting to be typed, if one was sent and is not used up. */
  verification: openVerification.nullable(),
});
export type AutopaySetting = z.infer<typeof autopaySetting>;

/** Turning it on carries the consent words' version the customer agreed to; turning it off withdraws it. */
export const autopayUpdate = z
  .object({ autopay: z.boolean(), consentVersion: z.string().min(1).max(40).optional() })
  .strict();

export const verificationCode = z
  .object({ code: z.string().regex(new RegExp(`^[0-9]{${VERIFICATION_RULES.codeDigits}}$`)) })
  .strict();

/** One deposit the sandbox bank's "bank app" shows for the caller's linked account (dev and tests only). */
export const sandboxDeposit = z.object({ depositorName: z.string(), amount: z.number(), at: z.string() });

export const AUTOPAY_MSG = {
  on: '자동 납부를 켰어요. 납부일에 연결 계좌에서 출금해요.',
  off: '자동 납부를 껐어요. 납부일까지 직접 납부해 주세요.',
  /** What the confirm sheet says happens instead. */
  offConfirm:
    '자동 납부를 끄면 납부일에 출금하지 않아요. 15일까지 직접 납부하지 않으면 16일에 자동 연장(등급 포인트 −5)되고, 말일까지 미납이면 연체(−20)와 이용 정지가 돼요.',
  /** Consent recorded, the account still to verify. */
  consented: '출금에 동의했어요. 연결 계좌를 1원 인증하면 자동 납부가 시작돼요.',
  consentRequired: '자동 납부를 켜려면 출금 동의 내용을 확인하고 동의해 주세요.',
  consentOutdated: '출금 동의 내용이 바뀌었어요. 새 내용을 확인하고 다시 동의해 주세요.',
  /** Why a pending customer is not debited, by reason (the /payment card and /mypage say it). */
  pending: {
    consent: '출금 동의가 필요해요. 동의하고 계좌를 인증하기 전까지는 자동으로 출금하지 않아요.',
    verification:
      '연결 계좌 1원 인증이 필요해요. 인증하기 전까지는 자동으로 출금하지 않으니 납부일까지 직접 납부해 주세요.',
  },
  codeSent: `연결 계좌로 1원을 보냈어요. 은행 앱에서 입금자명 '${VERIFICATION_RULES.depositorPrefix}' 뒤의 숫자 ${VERIFICATION_RULES.codeDigits}자리를 확인해 입력해 주세요.`,
  verified: '계좌 인증을 마쳤어요. 이제 납부일에 자동으로 출금해요.',
  alreadyVerified: '이미 인증을 마친 계좌예요.',
  codeWrong: (triesLeft: number) => `인증 코드가 맞지 않아요. ${triesLeft}번 더 입력할 수 있어요.`,
  codeLocked: `인증 코드를 ${VERIFICATION_RULES.maxTries}번 틀렸어요. 새 코드를 받아 다시 입력해 주세요.`,
  codeExpired: `인증 코드의 유효 시간(${VERIFICATION_RULES.codeMinutes}분)이 지났어요. 새 코드를 받아 주세요.`,
  noCode: '먼저 1원 인증 코드를 받아 주세요.',
  resendTooSoon: '방금 코드를 보냈어요. 잠시 후 다시 받을 수 있어요.',
  tooManyCodes: `인증 코드는 하루에 ${VERIFICATION_RULES.codesPerDay}번까지 받을 수 있어요. 내일 다시 시도해 주세요.`,
  accountTaken: '이 계좌는 이미 다른 회원이 인증했어요. 본인 명의의 다른 계좌로 바꾸거나 고객센터에 문의해 주세요.',
  depositFailed: '연결 계좌로 1원을 보내지 못했어요. 계좌 정보를 확인하거나 잠시 후 다시 시도해 주세요.',
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
    summary: '자동 납부 켜기(출금 동의)/끄기(동의 철회)',
    tags: ['bills'],
  }),
  sendCode: defineEndpoint({
    method: 'POST',
    path: '/api/payment/autopay/verification',
    response: enveloped(autopaySetting),
    access: 'customer',
    summary: '연결 계좌로 1원 인증 코드 보내기',
    tags: ['bills'],
  }),
  confirmCode: defineEndpoint({
    method: 'POST',
    path: '/api/payment/autopay/verification/confirm',
    body: verificationCode,
    response: enveloped(autopaySetting),
    access: 'customer',
    summary: '1원 인증 코드 확인',
    tags: ['bills'],
  }),
} as const;

/**
 * The sandbox bank's "bank app" for the caller's own linked account: the 1원 deposits and their depositor
 * names. Registered only when the server runs the sandbox bank with SANDBOX_BANK_INBOX on (development and the
 * e2e server); never part of the production API, so it is not in the endpoint registry.
 */
export const sandboxBankEndpoints = {
  deposits: defineEndpoint({
    method: 'GET',
    path: '/api/payment/autopay/sandbox-deposits',
    response: enveloped(z.array(sandboxDeposit)),
    access: 'customer',
    summary: '샌드박스 은행: 연결 계좌 입금 내역 (개발용)',
    tags: ['bills'],
  }),
} as const;
