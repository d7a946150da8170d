import { z } from 'zod';
import { SUSPENSION_REASONS } from './bill-rules';
import { defineEndpoint, enveloped } from './endpoint';
import { GRADE_NAMES } from './grades';
import { DB_INT_MAX } from './input';

/** One unpaid bill line (docs/rules/bills-and-grades.md#B4). `date` is an ISO instant. */
export const unpaidLine = z.object({
  paymentId: z.number().int(),
  date: z.string(),
  requestName: z.string(),
  price: z.number().int(),
  totalPrice: z.number().int(),
  point: z.number().int(),
});
export type UnpaidLine = z.infer<typeof unpaidLine>;

/** GET /api/payment/info: exactly the contract's fields (docs/rules/bills-and-grades.md#B3, #B4). */
export const paymentInfo = z.object({
  customerId: z.number().int(),
  account: z.string(),
  accountName: z.string(),
  /** The oldest unpaid statement was extended automatically. */
  auto: z.boolean(),
  /** The oldest unpaid statement is extended (manually or automatically). */
  extension: z.boolean(),
  balance: z.number().int(),
  gradeName: z.enum(GRADE_NAMES),
  pointPercentage: z.number(),
  limitPrice: z.number().int(),
  /** One list per statement month with unpaid lines, oldest month first; lines ascending by date. */
  unpaidBills: z.array(z.array(unpaidLine)),
});
export type PaymentInfo = z.infer<typeof paymentInfo>;

export const STATEMENT_STATUSES = ['OPEN', 'DUE', 'EXTENDED', 'OVERDUE'] as const;
export type StatementStatus = (typeof STATEMENT_STATUSES)[number];

/** One statement that still has unpaid lines (GET /api/payment/statements, our addition). */
export const statementSummary = z.object({
  month: z.string(),
  /** 'YYYY-MM-DD' (KST): the 15th of M+1, or its last day when extended. */
  dueDate: z.string(),
  extension: z.enum(['MANUAL', 'AUTO']).nullable(),
  status: z.enum(STATEMENT_STATUSES),
  amount: z.number().int(),
  count: z.number().int(),
});
export type StatementSummary = z.infer<typeof statementSummary>;

/** How long after a change of the monthly limit by risk the /payment card still tells of it. */
export const LIMIT_CHANGE_SHOWN_DAYS = 30;

/**
 * The latest change of the customer's monthly limit by risk (docs/rules/operations.md#O8), while it is the limit
 * in force and at most `LIMIT_CHANGE_SHOWN_DAYS` old; `at` is an ISO instant.
 */
export const limitChange = z.object({
  from: z.number().int(),
  to: z.number().int(),
  at: z.string(),
});
export type LimitChange = z.infer<typeof limitChange>;

export const billStatus = z.object({
  /** KST today, so the web shows D-days by the server's calendar. */
  today: z.string(),
  suspended: z.boolean(),
  /** Why payments are suspended: an overdue bill, or an operator (null when not suspended). */
  suspensionReason: z.enum(SUSPENSION_REASONS).nullable(),
  /** What must be repaid to lift a suspension: the unpaid amount of overdue statements. */
  overdueAmount: z.number().int(),
  statements: z.array(statementSummary),
  /** A recent change of the monthly limit by risk that still holds, or null (docs/rules/bills-and-grades.md#B3). */
  limitChange: limitChange.nullable(),
});
export type BillStatus = z.infer<typeof billStatus>;
export const billStatusResponse = enveloped(billStatus);

export const extensionResponse = enveloped(z.object({ month: z.string(), dueDate: z.string() }));

const paymentIds = z.array(z.number().int().positive().max(DB_INT_MAX)).max(1000);
/** POST /api/payment/immediately: a bare array of paymentIds (docs/rules/api.md#A1); `{paymentIds}` is accepted too. */
export const repayRequest = z.union([paymentIds, z.object({ paymentIds }).strict()]);

export const repayResult = z.object({
  repaymentId: z.number().int(),
  amount: z.number().int(),
  paymentIds: z.array(z.number().int()),
  gradePoint: z.number().int(),
  suspended: z.boolean(),
});
export type RepayResult = z.infer<typeof repayResult>;
export const repayResponse = enveloped(repayResult);

/**
 * GET /api/dash/me/pay-this-month (docs/rules/bills-and-grades.md#B14), a bare body. Amounts are what goes on the bill
 * (after points); `point` is points earned. API clients read the original names (`sumTotalPrice`, `sumPointThisMonth`,
 * `currentPointBalance`; items `paymentId, date, requestName, totalPrice, point`); our own names (`amount`,
 * `pointsThisMonth`, `pointBalance`; items `id, merchant, amount`) sit beside them with the same values.
 * `sumTotalPrice` is the sum of the items' `totalPrice`.
 */
export const payThisMonth = z.object({
  month: z.string(),
  sumTotalPrice: z.number().int(),
  sumPointThisMonth: z.number().int(),
  currentPointBalance: z.number().int(),
  amount: z.number().int(),
  pointsThisMonth: z.number().int(),
  pointBalance: z.number().int(),
  items: z.array(
    z.object({
      paymentId: z.number().int(),
      date: z.string(),
      requestName: z.string(),
      totalPrice: z.number().int(),
      point: z.number().int(),
      id: z.number().int(),
      merchant: z.string(),
      amount: z.number().int(),
    }),
  ),
});
export type PayThisMonth = z.infer<typeof payThisMonth>;

export const billEndpoints = {
  /** The bare payment info fields (docs/rules/api.md#A1). */
  info: defineEndpoint({
    method: 'GET',
    path: '/api/payment/info',
    response: paymentInfo,
    access: 'customer',
    summary: '납부 정보와 미납 내역',
    tags: ['bills'],
  }),
  statements: defineEndpoint({
    method: 'GET',
    path: '/api/payment/statements',
    response: billStatusResponse,
    access: 'customer',
    summary: '미납 청구서별 납부 기한·상태와 정지 여부',
    tags: ['bills'],
  }),
  extension: defineEndpoint({
    method: 'POST',
    path: '/api/payment/extension',
    response: extensionResponse,
    access: 'customer',
    summary: '납부 기한 연장 신청',
    tags: ['bills'],
  }),
  repay: defineEndpoint({
    method: 'POST',
    path: '/api/payment/immediately',
    body: repayRequest,
    response: repayResponse,
    access: 'customer',
    summary: '선택한 결제 내역 즉시 납부',
    tags: ['bills'],
  }),
  payThisMonth: defineEndpoint({
    method: 'GET',
    path: '/api/dash/me/pay-this-month',
    response: payThisMonth,
    access: 'customer',
    summary: '이번 달 BNPL 이용 요약',
    tags: ['bills'],
  }),
} as const;
