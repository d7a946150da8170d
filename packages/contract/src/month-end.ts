import { z } from 'zod';
import { defineEndpoint, type StaffAccess } from './endpoint';
import { isCalendarDate } from './kst';

/**
 * Month-end for finance and collections (docs/rules/operations.md#O14–O15): the report of one statement month
 * with the receivables' ageing, and CSV exports of the money tables and the audit log. Console endpoints like
 * those of ops.ts; kept in a file of their own so the report and the exports read as one piece.
 */

/** Money reads: risk watches money, admin everything (as the reconciliation and the trial balance). */
const READ_BOOKS: StaffAccess = { staff: ['RISK', 'ADMIN'] };
/** The customers' payments and bills: whoever reads them on the console (docs/rules/operations.md#O1). */
const READ_CUSTOMERS: StaffAccess = { staff: ['SUPPORT', 'RISK', 'ADMIN'] };

/** The longest range one export may cover (a year and a day: a whole leap year). */
export const EXPORT_MAX_DAYS = 366;

const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'YYYY-MM');
const calendarDate = z.string().refine(isCalendarDate, 'YYYY-MM-DD');

/** A statement month, and the KST day its figures are read at (today by default). */
export const monthEndQuery = z.object({ month, asOf: calendarDate.optional() });

/** A count of things and the won they carry. */
const tally = z.object({ count: z.number().int(), amount: z.number().int() });
export type Tally = z.infer<typeof tally>;

/** The ageing buckets, by whole KST days past the (extended) due date on the report's day. */
export const AGEING_BUCKETS = ['current', 'd1to30', 'd31to60', 'd61plus'] as const;
export type AgeingBucket = (typeof AGEING_BUCKETS)[number];
export const AGEING_LABELS: Record<AgeingBucket, string> = {
  current: '연체 전',
  d1to30: '1–30일',
  d31to60: '31–60일',
  d61plus: '60일 초과',
};

export const monthEndReport = z.object({
  month: z.string(),
  asOf: z.string(),
  /** The due date of the month's statements, and the extended one. */
  dueDate: z.string(),
  extendedDueDate: z.string(),
  statements: z.object({
    /** Statements of the month with at least one line that was not refunded before it was paid: what was billed. */
    issued: tally,
    /** Lines refunded while unpaid: they left the bill (a refund of a repaid line is paid back, see `repaid`). */
    refundedUnpaid: tally,
    /** Lines the customer repaid on or before the (extended) due date, themself. */
    paidEarly: tally,
    /** Lines the autopay debit repaid. */
    autopaid: tally,
    /** Lines the customer repaid after the due date (an overdue bill settled by hand). */
    paidLate: tally,
    /** Lines still unpaid on the report's day. */
    outstanding: tally,
    /** Written off: the product has no write-off (there is no such fact yet), so this is always nothing. */
    writtenOff: tally,
    /** Statements extended (by the customer or the 16th's job) and what they owed when extended. */
    extended: z.object({ manual: z.number().int(), auto: z.number().int() }),
    /** Statements gone overdue, and what is still unpaid on them. */
    overdue: tally,
    /** Autopay debits the bank refused (insufficient funds, closed account) and the won they asked for. */
    failedDebits: tally,
  }),
  /** Every customer's unpaid lines on the report's day, by days overdue; the total equals the ledger. */
  ageing: z.object({
    buckets: z.array(
      z.object({ bucket: z.enum(AGEING_BUCKETS), customers: z.number().int(), amount: z.number().int() }),
    ),
    total: z.number().int(),
    /** The ledger's customer receivable at the end of the report's day (docs/rules/ledger.md). */
    ledgerReceivable: z.number().int(),
  }),
  /**
   * The merchants' side of the calendar month, read from the ledger: sales and refunds posted in it, and the
   * fees and payouts that settlement posts on the same accounts (docs/rules/ledger.md, "Postings"); nothing
   * until settlement posts its entries.
   */
  merchants: z.object({
    sales: z.number().int(),
    refunds: z.number().int(),
    fees: z.number().int(),
    payouts: z.number().int(),
  }),
});
export type MonthEndReport = z.infer<typeof monthEndReport>;

/** A range of KST days, both ends included. */
export const exportRange = z
  .object({ from: calendarDate, to: calendarDate })
  .refine((range) => range.from <= range.to, { message: '시작일이 종료일보다 늦어요.', path: ['from'] })
  .refine((range) => (Date.parse(range.to) - Date.parse(range.from)) / 86_400_000 < EXPORT_MAX_DAYS, {
    message: `한 번에 ${EXPORT_MAX_DAYS}일까지 내려받을 수 있어요.`,
    path: ['to'],
  });
export type ExportRange = z.infer<typeof exportRange>;

/** What can be exported: the tables finance and collections reconcile against, and the audit log. */
export const EXPORT_KINDS = [
  'payments',
  'refunds',
  'repayments',
  'autopay-attempts',
  'audit-log',
  'month-end',
] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/** A CSV file (UTF-8 with a BOM, CRLF, RFC 4180), streamed; it is no JSON body. */
const csvFile = z.string().describe('text/csv; charset=utf-8 (BOM, CRLF, RFC 4180)');

const tags = ['ops'] as const;

export const monthEndEndpoints = {
  monthEndReport: defineEndpoint({
    method: 'GET',
    path: '/api/ops/reports/month-end',
    query: monthEndQuery,
    response: monthEndReport,
    access: READ_BOOKS,
    summary: '월말 보고서 (청구 월별, 연체 기간별 채권)',
    tags,
  }),
  exportMonthEnd: defineEndpoint({
    method: 'GET',
    path: '/api/ops/exports/month-end.csv',
    query: monthEndQuery,
    response: csvFile,
    access: READ_BOOKS,
    summary: '월말 보고서 CSV',
    tags,
  }),
  exportPayments: defineEndpoint({
    method: 'GET',
    path: '/api/ops/exports/payments.csv',
    query: exportRange,
    response: csvFile,
    access: READ_CUSTOMERS,
    summary: '결제 내역 CSV (기간)',
    tags,
  }),
  exportRefunds: defineEndpoint({
    method: 'GET',
    path: '/api/ops/exports/refunds.csv',
    query: exportRange,
    response: csvFile,
    access: READ_CUSTOMERS,
    summary: '환불 내역 CSV (기간)',
    tags,
  }),
  exportRepayments: defineEndpoint({
    method: 'GET',
    path: '/api/ops/exports/repayments.csv',
    query: exportRange,
    response: csvFile,
    access: READ_CUSTOMERS,
    summary: '납부 내역 CSV (기간)',
    tags,
  }),
  exportAutopayAttempts: defineEndpoint({
    method: 'GET',
    path: '/api/ops/exports/autopay-attempts.csv',
    query: exportRange,
    response: csvFile,
    access: READ_CUSTOMERS,
    summary: '자동 납부 출금 시도 CSV (기간)',
    tags,
  }),
  exportAuditLog: defineEndpoint({
    method: 'GET',
    path: '/api/ops/exports/audit-log.csv',
    query: exportRange,
    response: csvFile,
    access: READ_BOOKS,
    summary: '감사 기록 CSV (기간)',
    tags,
  }),
} as const;

/** Each range export's endpoint by kind (the month-end file takes a month instead). */
export const rangeExportEndpoints = {
  payments: monthEndEndpoints.exportPayments,
  refunds: monthEndEndpoints.exportRefunds,
  repayments: monthEndEndpoints.exportRepayments,
  'autopay-attempts': monthEndEndpoints.exportAutopayAttempts,
  'audit-log': monthEndEndpoints.exportAuditLog,
} as const satisfies Record<Exclude<ExportKind, 'month-end'>, unknown>;
