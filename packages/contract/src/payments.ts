import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { GRADE_NAMES } from './grades';
import { decimalInt, plainText } from './input';
import { BANKS, LIMITS } from './limits';

export const PAYMENT_REQUEST_STATUSES = ['ACTIVE', 'PAID', 'EXPIRED', 'CANCELLED', 'REFUNDED'] as const;
export type PaymentRequestStatus = (typeof PAYMENT_REQUEST_STATUSES)[number];

/** A payment request's PIN: exactly `LIMITS.pinLength` digits (the server draws them; the PIN pad fills them). */
export const pinCode = z.string().regex(new RegExp(`^\\d{${LIMITS.pinLength}}$`));

/* Merchant API (docs/rules/payments.md#P1–P5) */

export const createPaymentRequestBody = z
  .object({
    orderId: plainText().trim().min(1).max(64),
    requestName: plainText().trim().min(1).max(LIMITS.requestNameMax),
    totalPrice: z.number().int().min(1).max(LIMITS.totalPriceMax),
  })
  .strict();
export type CreatePaymentRequestBody = z.infer<typeof createPaymentRequestBody>;

export const paymentRequestView = z.object({
  requestId: z.string(),
  orderId: z.string(),
  requestName: z.string(),
  totalPrice: z.number().int(),
  pinCode,
  qrCode: z.string(),
  qrImage: z.string(),
  expiresAt: z.string(),
  /** With expiresAt, lets a checkout screen count down without trusting its own clock. */
  createdAt: z.string(),
  status: z.enum(PAYMENT_REQUEST_STATUSES),
  paidAt: z.string().nullable(),
});
export type PaymentRequestView = z.infer<typeof paymentRequestView>;

export const requestIdParams = z.object({ requestId: z.string().uuid() });

/* Customer payment (docs/rules/payments.md#P6–P13) */

export const validateBody = z
  .object({
    codeType: z.enum(['pincode', 'qrcode']),
    value: plainText().trim().min(1).max(512),
  })
  .strict();
export type ValidateBody = z.infer<typeof validateBody>;

export const validateResult = z.object({
  requestName: z.string(),
  price: z.number().int(),
  /** My spendable points. */
  point: z.number().int(),
  /** My available limit. */
  balance: z.number().int(),
  requestId: z.string(),
});
export type ValidateResult = z.infer<typeof validateResult>;

export const finalQuery = z.object({
  point: decimalInt(0, LIMITS.totalPriceMax).default(0),
  requestId: z.string().uuid(),
});

export const finalResult = z.object({
  paymentId: z.number().int(),
  price: z.number().int(),
  pointUsed: z.number().int(),
  pointEarned: z.number().int(),
  balance: z.number().int(),
  pointBalance: z.number().int(),
});
export type FinalResult = z.infer<typeof finalResult>;

export const monthQuery = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
    .optional(),
});

export const PURCHASE_STATUSES = ['UNPAID', 'PAID', 'REFUNDED'] as const;

export const paymentHistoryItem = z.object({
  paymentId: z.number().int(),
  date: z.string(),
  requestName: z.string(),
  merchant: z.string(),
  totalPrice: z.number().int(),
  point: z.number().int(),
  price: z.number().int(),
  pointEarned: z.number().int(),
  status: z.enum(PURCHASE_STATUSES),
});
export type PaymentHistoryItem = z.infer<typeof paymentHistoryItem>;

export const pointHistoryItem = z.object({
  date: z.string(),
  pointExplain: z.string(),
  point: z.number().int(),
  /** Where a payment's points were earned, used or returned (our addition); null for check-in and watching. */
  merchant: z.string().nullable(),
});
export type PointHistoryItem = z.infer<typeof pointHistoryItem>;

export const mypage = z.object({
  name: z.string(),
  emailId: z.string(),
  gradeName: z.enum(GRADE_NAMES),
  pointPercent: z.number(),
  gradePoint: z.number().int(),
  account: z.string(),
  accountName: z.enum(BANKS),
  point: z.number().int(),
});
export type Mypage = z.infer<typeof mypage>;

/* Endpoints of account and payment: bodies exactly where API clients read them (docs/rules/api.md#A1). */

const idempotencyHeaders = z.looseObject({ 'idempotency-key': z.string().min(1).max(128).optional() });

export const paymentEndpoints = {
  /** Bare `{requestName, price, point, balance, requestId}`: the payment modal reads the fields at the top. */
  validate: defineEndpoint({
    method: 'POST',
    path: '/api/payment/validate',
    body: validateBody,
    response: validateResult,
    access: 'customer',
    summary: 'PIN/QR 코드 확인 및 예약',
    tags: ['payment'],
  }),
  final: defineEndpoint({
    method: 'POST',
    path: '/api/payment/final',
    query: finalQuery,
    headers: idempotencyHeaders,
    response: z.object({ success: z.literal(true), result: finalResult }),
    access: 'customer',
    summary: '결제 확정 (멱등)',
    tags: ['payment'],
  }),
  paymentHistory: defineEndpoint({
    method: 'GET',
    path: '/api/payment/history',
    query: monthQuery,
    response: z.array(paymentHistoryItem),
    access: 'customer',
    summary: '결제 내역 (최신순)',
    tags: ['payment'],
  }),
  pointHistory: defineEndpoint({
    method: 'GET',
    path: '/api/point/history',
    query: monthQuery,
    response: z.array(pointHistoryItem),
    access: 'customer',
    summary: '포인트 내역 (최신순)',
    tags: ['point'],
  }),
  /** The bare my page fields. */
  mypage: defineEndpoint({
    method: 'GET',
    path: '/api/mypage',
    response: mypage,
    access: 'customer',
    summary: '마이페이지 요약',
    tags: ['customer'],
  }),
} as const;

/* Merchant API (docs/rules/payments.md#P1): authenticated by the `X-Merchant-Key` header. The status stream (SSE) is a
 * plain route: it has no JSON body. */

/**
 * Path of a payment request's live status stream (Server-Sent Events, outside the JSON contract, with the
 * merchant's key header): `event: status` with `{requestId, status}` on each change, ending at a final status.
 */
export const PAYMENT_STATUS_STREAM_PATH = '/api/merchant/payment-requests/:requestId/events';

/** Optional in the schema so a missing key is the merchant module's 401, not a validation 400. */
export const merchantKeyHeaders = z.looseObject({ 'x-merchant-key': z.string().max(256).optional() });

export const merchantEndpoints = {
  create: defineEndpoint({
    method: 'POST',
    path: '/api/merchant/payment-requests',
    headers: merchantKeyHeaders,
    body: createPaymentRequestBody,
    response: paymentRequestView,
    access: 'merchant',
    summary: '결제 요청 생성 (주문번호로 멱등)',
    tags: ['merchant'],
  }),
  get: defineEndpoint({
    method: 'GET',
    path: '/api/merchant/payment-requests/:requestId',
    params: requestIdParams,
    headers: merchantKeyHeaders,
    response: paymentRequestView,
    access: 'merchant',
    summary: '결제 요청 조회',
    tags: ['merchant'],
  }),
  cancel: defineEndpoint({
    method: 'POST',
    path: '/api/merchant/payment-requests/:requestId/cancel',
    params: requestIdParams,
    headers: merchantKeyHeaders,
    response: paymentRequestView,
    access: 'merchant',
    summary: '결제 요청 취소',
    tags: ['merchant'],
  }),
  refund: defineEndpoint({
    method: 'POST',
    path: '/api/merchant/payment-requests/:requestId/refund',
    params: requestIdParams,
    headers: merchantKeyHeaders,
    response: paymentRequestView,
    access: 'merchant',
    summary: '결제 환불 (90일 이내)',
    tags: ['merchant'],
  }),
} as const;
