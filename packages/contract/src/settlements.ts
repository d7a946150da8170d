import { z } from 'zod';
import { ACCOUNT_PATTERN, normalizeAccount } from './auth-rules';
import { defineEndpoint, type StaffAccess } from './endpoint';
import { dbId, decimalInt } from './input';
import { BANKS } from './limits';
import { reason } from './ops';
import { merchantKeyHeaders } from './payments';

/*
 * Merchant settlement and payouts (docs/rules/settlement.md): each merchant's KST day closed into a settlement
 * (sales, refunds, fees, net) and the net paid to its verified settlement account on the due business day.
 */

export const SETTLEMENT_RULES = {
  /** The fee on a sale, in basis points, unless an admin sets another (250 = 2.5 %). */
  defaultFeeBps: 250,
  maxFeeBps: 10_000,
  /** Paid D+N business days after the KST day sold (D+1 by default). */
  defaultCycleDays: 1,
  maxCycleDays: 10,
} as const;

/**
 * The fee of one sale: `amount × bps / 10,000`, rounded down to the won (ADR 0228). A refund gives back
 * exactly the fee its sale was charged.
 */
export function saleFee(amount: number, feeBps: number): number {
  return Math.floor((amount * feeBps) / 10_000);
}

export const SETTLEMENT_STATUSES = ['PENDING', 'PAID', 'NO_PAYOUT'] as const;
export const SETTLEMENT_LINE_KINDS = ['SALE', 'REFUND'] as const;

const krw = z.number().int();
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const settlementSummary = z.object({
  settlementId: z.number().int(),
  /** The KST day closed. */
  date,
  feeBps: z.number().int(),
  sales: krw,
  refunds: krw,
  /** Fees on the day's sales less fees given back with its refunds. */
  fees: krw,
  /** A previous negative net brought forward (≤ 0). */
  carriedIn: krw,
  /** sales − refunds − fees + carriedIn; a negative net is carried into the next settlement. */
  net: krw,
  payout: krw,
  dueDate: date,
  status: z.enum(SETTLEMENT_STATUSES),
  paidAt: z.string().nullable(),
});
export type SettlementSummary = z.infer<typeof settlementSummary>;

export const settlementLine = z.object({
  kind: z.enum(SETTLEMENT_LINE_KINDS),
  paymentId: z.number().int(),
  orderId: z.string(),
  requestName: z.string(),
  amount: krw,
  fee: krw,
  at: z.string(),
});

export const settlementsResponse = z.object({ items: z.array(settlementSummary) });
export const settlementDetail = settlementSummary.extend({ lines: z.array(settlementLine) });
export const settlementParams = z.object({ settlementId: dbId() });
export const settlementsQuery = z.object({ before: dbId().optional() }).strict();

export const merchantSettlementEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/merchant/settlements',
    query: settlementsQuery,
    headers: merchantKeyHeaders,
    response: settlementsResponse,
    access: 'merchant',
    summary: '정산 내역 (최근 순, 50건씩; before = 이전 페이지 마지막 settlementId)',
    tags: ['merchant'],
  }),
  get: defineEndpoint({
    method: 'GET',
    path: '/api/merchant/settlements/:settlementId',
    params: settlementParams,
    headers: merchantKeyHeaders,
    response: settlementDetail,
    access: 'merchant',
    summary: '정산 상세 (결제 · 환불 내역)',
    tags: ['merchant'],
  }),
  /** The CSV of one settlement: UTF-8 with a BOM, so spreadsheet apps read the Korean. */
  csv: defineEndpoint({
    method: 'GET',
    path: '/api/merchant/settlements/:settlementId/csv',
    params: settlementParams,
    headers: merchantKeyHeaders,
    response: z.string().describe('text/csv; charset=utf-8 (BOM, CRLF, RFC 4180)'),
    access: 'merchant',
    summary: '정산 내역 CSV',
    tags: ['merchant'],
  }),
} as const;

/* ---- the console ---- */

const READ_BOOKS: StaffAccess = { staff: ['RISK', 'ADMIN'] };
const ADMINISTER: StaffAccess = { staff: ['ADMIN'] };

export const merchantIdParams = z.object({ id: dbId() });

export const settlementTermsRequest = z
  .object({
    feeBps: decimalInt(0, SETTLEMENT_RULES.maxFeeBps),
    cycleDays: decimalInt(1, SETTLEMENT_RULES.maxCycleDays),
    reason,
  })
  .strict();

export const settlementAccountRequest = z
  .object({
    bank: z.enum(BANKS),
    account: z.string().max(40).transform(normalizeAccount).pipe(z.string().regex(ACCOUNT_PATTERN)),
    reason,
  })
  .strict();

const reasonOnly = z.object({ reason }).strict();

export const merchantSettlementView = z.object({
  merchantId: z.number().int(),
  feeBps: z.number().int(),
  cycleDays: z.number().int(),
  /** The settlement account, masked; verified once a second operator confirmed it. */
  account: z.object({ bank: z.string(), account: z.string(), verified: z.boolean() }).nullable(),
  /** What the product owes the merchant now (the ledger's merchant payable). */
  payable: krw,
  hold: z.object({ reason: z.string(), heldAt: z.string(), heldBy: z.number().int().nullable() }).nullable(),
  settlements: z.array(settlementSummary),
});

const done = z.object({ ok: z.literal(true) });

export const opsSettlementEndpoints = {
  merchantSettlement: defineEndpoint({
    method: 'GET',
    path: '/api/ops/merchants/:id/settlement',
    params: merchantIdParams,
    response: merchantSettlementView,
    access: READ_BOOKS,
    summary: '가맹점 정산 (수수료, 주기, 미지급 잔액, 정산 내역, 보류)',
    tags: ['ops'],
  }),
  setSettlementTerms: defineEndpoint({
    method: 'POST',
    path: '/api/ops/merchants/:id/settlement-terms',
    params: merchantIdParams,
    body: settlementTermsRequest,
    response: done,
    access: ADMINISTER,
    summary: '가맹점 수수료율 (bp) · 정산 주기 (D+영업일) 변경',
    tags: ['ops'],
  }),
  setSettlementAccount: defineEndpoint({
    method: 'POST',
    path: '/api/ops/merchants/:id/settlement-account',
    params: merchantIdParams,
    body: settlementAccountRequest,
    response: done,
    access: ADMINISTER,
    summary: '가맹점 정산 계좌 등록 (다른 운영자의 확인 전까지 지급 보류)',
    tags: ['ops'],
  }),
  verifySettlementAccount: defineEndpoint({
    method: 'POST',
    path: '/api/ops/merchants/:id/settlement-account/verify',
    params: merchantIdParams,
    body: reasonOnly,
    response: done,
    access: READ_BOOKS,
    summary: '정산 계좌 확인 (등록한 운영자가 아닌 다른 운영자)',
    tags: ['ops'],
  }),
  holdPayouts: defineEndpoint({
    method: 'POST',
    path: '/api/ops/merchants/:id/payout-hold',
    params: merchantIdParams,
    body: reasonOnly,
    response: done,
    access: READ_BOOKS,
    summary: '가맹점 지급 보류',
    tags: ['ops'],
  }),
  releasePayouts: defineEndpoint({
    method: 'POST',
    path: '/api/ops/merchants/:id/payout-release',
    params: merchantIdParams,
    body: reasonOnly,
    response: done,
    access: READ_BOOKS,
    summary: '가맹점 지급 보류 해제',
    tags: ['ops'],
  }),
} as const;
