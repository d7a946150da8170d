import { bankName, maskAccount } from '@ohgood/contract/bank';
import { kstIso } from '@ohgood/contract/kst';
import type { SettlementSummary } from '@ohgood/contract/settlements';
import { and, asc, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  merchantPayoutHolds,
  merchants,
  paymentRequests,
  purchases,
  settlementLines,
  settlements,
} from '../../db/schema';
import { rowsOf } from '../../db/tx';
import { notFound } from '../../lib/errors';

type SettlementRow = typeof settlements.$inferSelect;

const PAGE = 50;

/** A settlement as the merchant API shows it (its list, and the `settlement.paid` webhook). */
export function settlementSummaryOf(row: SettlementRow): SettlementSummary {
  return {
    settlementId: row.id,
    date: row.businessDate,
    feeBps: row.feeBps,
    sales: row.sales,
    refunds: row.refunds,
    fees: row.fees,
    carriedIn: row.carriedIn,
    net: row.net,
    payout: row.payout,
    dueDate: row.dueDate,
    status: row.status,
    paidAt: row.paidAt ? kstIso(row.paidAt) : null,
  };
}

/** A merchant's settlements, newest day first, 50 a page (`before`: the last id of the previous page). */
export async function merchantSettlements(db: Db, merchantId: number, before?: number) {
  const rows = await db
    .select()
    .from(settlements)
    .where(and(eq(settlements.merchantId, merchantId), before ? lt(settlements.id, before) : undefined))
    .orderBy(desc(settlements.id))
    .limit(PAGE);
  return rows.map(settlementSummaryOf);
}

/** One of the merchant's own settlements with its lines; another merchant's is not found, like a missing one. */
export async function merchantSettlement(db: Db, merchantId: number, settlementId: number) {
  const [row] = await db
    .select()
    .from(settlements)
    .where(and(eq(settlements.id, settlementId), eq(settlements.merchantId, merchantId)));
  if (!row) throw notFound('SETTLEMENT_NOT_FOUND', '정산 내역을 찾을 수 없습니다.');
  const lines = await db
    .select({
      kind: settlementLines.kind,
      paymentId: settlementLines.paymentId,
      orderId: paymentRequests.orderId,
      requestName: purchases.requestName,
      amount: settlementLines.amount,
      fee: settlementLines.fee,
      at: settlementLines.at,
    })
    .from(settlementLines)
    .innerJoin(purchases, eq(purchases.id, settlementLines.paymentId))
    .innerJoin(paymentRequests, eq(paymentRequests.id, purchases.requestId))
    .where(eq(settlementLines.settlementId, settlementId))
    .orderBy(asc(settlementLines.at), asc(settlementLines.paymentId));
  return { ...settlementSummaryOf(row), lines: lines.map((line) => ({ ...line, at: kstIso(line.at) })) };
}

const CSV_HEADER = ['구분', '결제번호', '주문번호', '상품명', '금액', '수수료', '일시'];
const KIND_LABEL = { SALE: '결제', REFUND: '환불' } as const;

/** One CSV field: quoted when it holds a comma, quote or line break; a leading formula sign is neutralised. */
function csvField(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * One settlement as CSV for the merchant's accountant (docs/rules/settlement.md#M7): UTF-8 with a BOM so
 * spreadsheet apps read the Korean, a line per sale and refund, then the totals.
 */
export async function settlementCsv(db: Db, merchantId: number, settlementId: number): Promise<string> {
  const s = await merchantSettlement(db, merchantId, settlementId);
  const rows: Array<Array<string | number>> = [
    CSV_HEADER,
    ...s.lines.map((l) => [KIND_LABEL[l.kind], l.paymentId, l.orderId, l.requestName, l.amount, l.fee, l.at]),
    [],
    ['정산일', s.date],
    ['결제 합계', s.sales],
    ['환불 합계', s.refunds],
    ['수수료', s.fees],
    ['이월 차감', s.carriedIn],
    ['정산 금액', s.net],
    ['지급액', s.payout],
    ['지급 예정일', s.dueDate],
    ['상태', s.status],
  ];
  return `\uFEFF${rows.map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/**
 * What the console shows of a merchant's settlement (docs/rules/settlement.md#M8): its terms, its account
 * masked, what the ledger says is owed to it, its open hold and its latest settlements.
 */
export async function merchantSettlementView(db: Db, merchantId: number) {
  const [merchant] = await db.select().from(merchants).where(eq(merchants.id, merchantId));
  if (!merchant) throw notFound('MERCHANT_NOT_FOUND', '가맹점을 찾을 수 없습니다.');
  const [payable] = await rowsOf<{ balance: string }>(
    db,
    sql`select coalesce(-sum(amount), 0)::text as balance from ledger_lines
      where account_kind = 'MERCHANT_PAYABLE' and owner_id = ${merchantId}`,
  );
  const [hold] = await db
    .select()
    .from(merchantPayoutHolds)
    .where(and(eq(merchantPayoutHolds.merchantId, merchantId), isNull(merchantPayoutHolds.releasedAt)));
  return {
    merchantId,
    feeBps: merchant.feeBps,
    cycleDays: merchant.settlementDays,
    account:
      merchant.settlementBank && merchant.settlementAccount
        ? {
            bank: bankName(merchant.settlementBank),
            account: maskAccount(merchant.settlementAccount),
            verified: merchant.settlementAccountVerifiedAt !== null,
          }
        : null,
    payable: Number(payable?.balance ?? 0),
    hold: hold ? { reason: hold.reason, heldAt: kstIso(hold.heldAt), heldBy: hold.heldBy } : null,
    settlements: await merchantSettlements(db, merchantId),
  };
}
