import { z } from 'zod';
import { envelope } from './envelope';
import { GRADE_NAMES } from './grades';
import { BANKS, LIMITS } from './limits';

export const PAYMENT_REQUEST_STATUSES = ['ACTIVE', 'PAID', 'EXPIRED', 'CANCELLED', 'REFUNDED'] as const;
export type PaymentRequestStatus = (typeof PAYMENT_REQUEST_STATUSES)[number];

/* Merchant API (domain §4) */

export const createPaymentRequestBody = z
  .object({
    orderId: z.string().trim().min(1).max(64),
    requestName: z.string().trim().min(1).max(LIMITS.requestNameMax),
    totalPrice: z.number().int().min(1).max(LIMITS.totalPriceMax),
  })
  .strict();
export type CreatePaymentRequestBody = z.infer<typeof createPaymentRequestBody>;

export const paymentRequestView = z.object({
  requestId: z.string(),
  orderId: z.string(),
  requestName: z.string(),
  totalPrice: z.number().int(),
  pinCode: z.string(),
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

/* Customer payment (domain §5) */

export const validateBody = z
  .object({
    codeType: z.enum(['pincode', 'qrcode']),
    value: z.string().trim().min(1).max(512),
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
export const validateResponse = envelope(validateResult);

export const finalQuery = z.object({
  point: z.coerce.number().int().min(0).max(LIMITS.totalPriceMax).default(0),
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
export const finalResponse = z.object({ success: z.literal(true), result: finalResult });

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
export const mypageResponse = envelope(mypage);
