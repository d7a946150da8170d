import { z } from 'zod';

/**
 * Every code an API error can carry (`{success: false, code, message}`), plus the few the web client makes
 * up itself (network, timeout, no token). Clients branch on these, never on the Korean message.
 * Adding a code here is the only way to use it: the server's AppError takes an ErrorCode.
 */
export const ERROR_CODES = [
  // generic (error handler, guard, not-found handler)
  'VALIDATION_ERROR',
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'TOKEN_REVOKED',
  'NOT_FOUND',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  // a dependency (database, media store, disk) is down for a moment: 503 with Retry-After
  'SERVICE_UNAVAILABLE',
  // web client only: no request reached the server, or the body said success:false without a code
  'LOGIN_REQUIRED',
  'NETWORK_ERROR',
  'TIMEOUT',
  'REQUEST_FAILED',
  // auth and customers
  'EMAIL_TAKEN',
  'INVALID_BIRTH',
  'INVALID_CREDENTIALS',
  'TOO_MANY_LOGIN_ATTEMPTS',
  'TOO_MANY_SIGNUPS',
  'CUSTOMER_NOT_FOUND',
  'ACCOUNT_SUSPENDED',
  // merchants
  'MERCHANT_KEY_REQUIRED',
  'INVALID_MERCHANT_KEY',
  'ORDER_ID_CONFLICT',
  'PAYMENT_REQUEST_NOT_FOUND',
  'NOT_CANCELLABLE',
  'REQUEST_EXPIRED',
  'NOT_REFUNDABLE',
  // merchant webhooks
  'WEBHOOK_URL_REFUSED',
  'WEBHOOK_ENDPOINT_NOT_FOUND',
  'WEBHOOK_DELIVERY_NOT_FOUND',
  'WEBHOOK_ENDPOINT_LIMIT',
  'REFUND_WINDOW_PASSED',
  // payments
  'INVALID_CODE',
  'TOO_MANY_CODE_ATTEMPTS',
  'REQUEST_NOT_ACTIVE',
  'REQUEST_RESERVED',
  'REQUEST_NOT_VALIDATED',
  'INVALID_POINT',
  'LIMIT_EXCEEDED',
  'INVALID_PAYMENT',
  'IDEMPOTENCY_KEY_REUSED',
  'PAYMENT_BUSY',
  // bills
  'ALREADY_EXTENDED',
  'EXTENSION_NOT_ALLOWED',
  'ALREADY_PAID',
  'AUTOPAY_IN_PROGRESS',
  // autopay consent and 1원 인증
  'AUTOPAY_CONSENT_REQUIRED',
  'VERIFICATION_NOT_STARTED',
  'VERIFICATION_CODE_WRONG',
  'VERIFICATION_LOCKED',
  'VERIFICATION_EXPIRED',
  'VERIFICATION_TOO_SOON',
  'VERIFICATION_TOO_MANY',
  'ACCOUNT_ALREADY_VERIFIED',
  'ACCOUNT_VERIFIED_BY_OTHER',
  'BANK_DEPOSIT_FAILED',
  'NOT_PAYABLE',
  'NO_SELECTION',
  'OLDEST_FIRST',
  // check-in
  'ALREADY_CHECKED_IN',
  // shorts
  'SHORT_NOT_FOUND',
  'COMMENT_NOT_FOUND',
  'PARENT_NOT_FOUND',
  'NOT_COMMENT_OWNER',
  'REPLY_DEPTH',
  'CONTENT_TOO_LONG',
  'TITLE_TOO_LONG',
  'SELF_SUBSCRIBE',
  'NO_MATCHING_VIEW',
  // no longer answered: a claim longer than the short counts as its length (docs/rules/shorts.md#S16)
  'WATCH_TOO_LONG',
  'WATCH_TOO_SHORT',
  'DAILY_LIMIT_REACHED',
  'FILE_TOO_LARGE',
  'UNSUPPORTED_VIDEO',
  'UNSUPPORTED_IMAGE',
  'UPLOAD_FIELDS_REQUIRED',
  'UPLOAD_TOO_MANY_PARTS',
  // search, profiles, shorts my page
  'INVALID_CURSOR',
  'NICKNAME_REQUIRED',
  'PROFILE_INVALID',
  'NICKNAME_TAKEN',
  'MULTIPART_REQUIRED',
  // chat (no longer answered: a session id is scoped to the customer of the token, ADR 0180; kept so that
  // clients which branch on it still read the list they know)
  'CHAT_SESSION_FORBIDDEN',
  // notifications
  'NOTICE_NOT_FOUND',
  'PUSH_ENDPOINT_NOT_ALLOWED',
  'PUSH_KEYS_INVALID',
  // operator console (staff, audit, moderation)
  'INVALID_TOTP',
  'ENROLMENT_INVALID',
  'STAFF_EMAIL_TAKEN',
  'STAFF_NOT_FOUND',
  'MERCHANT_NOT_FOUND',
  'MERCHANT_DISABLED',
  // merchant portal (merchant users, their keys)
  'MERCHANT_USER_EMAIL_TAKEN',
  'MERCHANT_USER_NOT_FOUND',
  'MERCHANT_KEY_NOT_FOUND',
  'PORTAL_SESSION_REQUIRED',
  'NOT_SUSPENDED',
  'ALREADY_SUSPENDED',
  'PAYMENT_NOT_FOUND',
  'REPORT_NOT_FOUND',
  'RECONCILIATION_NOT_FOUND',
  'LIMIT_OUT_OF_BOUNDS',
  'STAFF_ALREADY_DISABLED',
  'STAFF_SELF_DISABLE',
  'INVALID_PROMISE_DATE',
  // console collections and jobs
  'DEBIT_NOT_RETRYABLE',
  'REMINDER_TOO_SOON',
  'BULK_PREVIEW_STALE',
  'JOB_NOT_FOUND',
  'JOB_PERIOD_ALREADY_RAN',
  'JOB_PERIOD_NOT_DUE',
  // merchant settlement
  'SETTLEMENT_NOT_FOUND',
  'SETTLEMENT_ACCOUNT_MISSING',
  'SETTLEMENT_ACCOUNT_VERIFIED',
  'SAME_STAFF_VERIFIES',
  'PAYOUTS_HELD',
  'PAYOUTS_NOT_HELD',
  // customer safety
  'ALREADY_REPORTED',
  'SELF_REPORT',
  'TOO_MANY_REPORTS',
  'SELF_BLOCK',
  'UPLOAD_BANNED',
] as const;
export const errorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof errorCode>;

/** The one error shape of the API (architecture doc, "API conventions"), sent with a 4xx/5xx status. */
export const errorBody = z.object({
  success: z.literal(false),
  code: errorCode,
  message: z.string(),
  /** The request field the refusal is about (`emailId`, `account`…), when it is about one; the message names its rule. */
  field: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;
