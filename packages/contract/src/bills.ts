import { z } from 'zod';
import { envelope } from './envelope';
import { GRADE_NAMES } from './grades';

/** One unpaid bill line (spec §3 "Unpaid payment", domain §6.2). `date` is an ISO instant. */
export const unpaidLine = z.object({
  paymentId: z.number().int(),
  date: z.string(),
  requestName: z.string(),
  price: z.number().int(),
  totalPrice: z.number().int(),
  point: z.number().int(),
});
export type UnpaidLine = z.infer<typeof unpaidLine>;

/** GET /api/payment/info: exactly the spec's fields (domain §6.2). */
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
export const paymentInfoResponse = envelope(paymentInfo);

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

export const billStatus = z.object({
  /** KST today, so the web shows D-days by the server's calendar. */
  today: z.string(),
  suspended: z.boolean(),
  /** What must be repaid to lift a suspension: the unpaid amount of overdue statements. */
  overdueAmount: z.number().int(),
  statements: z.array(statementSummary),
});
export type BillStatus = z.infer<typeof billStatus>;
export const billStatusResponse = envelope(billStatus);

export const extensionResponse = envelope(z.object({ month: z.string(), dueDate: z.string() }));

const paymentIds = z.array(z.number().int().positive()).max(1000);
/** POST /api/payment/immediately: a bare array of paymentIds (spec §7); `{paymentIds}` is accepted too. */
export const repayRequest = z.union([paymentIds, z.object({ paymentIds }).strict()]);

export const repayResult = z.object({
  repaymentId: z.number().int(),
  amount: z.number().int(),
  paymentIds: z.array(z.number().int()),
  gradePoint: z.number().int(),
  suspended: z.boolean(),
});
export type RepayResult = z.infer<typeof repayResult>;
export const repayResponse = envelope(repayResult);

/** GET /api/dash/me/pay-this-month (domain §6.6). Amounts are what goes on the bill (after points). */
export const payThisMonth = z.object({
  month: z.string(),
  amount: z.number().int(),
  pointsThisMonth: z.number().int(),
  pointBalance: z.number().int(),
  items: z.array(
    z.object({
      id: z.number().int(),
      date: z.string(),
      merchant: z.string(),
      amount: z.number().int(),
      point: z.number().int(),
    }),
  ),
});
export type PayThisMonth = z.infer<typeof payThisMonth>;
export const payThisMonthResponse = envelope(payThisMonth);
