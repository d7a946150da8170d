import { maskAccount } from '@ohgood/contract/bank';
import { kstEndOfDay, kstIso, kstStartOfDay } from '@ohgood/contract/kst';
import type { ExportKind, ExportRange } from '@ohgood/contract/month-end';
import { type SQL, sql } from 'drizzle-orm';
import { maskName } from '../ops/masking';
import type { CsvValue } from './csv';

/*
 * What each range export holds (docs/rules/operations.md#O15): its header, the one query a cursor walks (oldest
 * first, by the time the fact happened, within the KST days asked) and how a row becomes cells. Personal data
 * leaves only as the console shows it by default, for every role that may export (ADR 0226): names 김*굿,
 * accounts ****6789, never an e-mail. A file is a copy outside the audited "보기", so it carries no more.
 */

/** An instant as Excel reads a date and time: KST, 'YYYY-MM-DD HH:mm:ss'. */
export const kstCell = (at: Date | string | null): string | null =>
  at === null ? null : kstIso(at).slice(0, 19).replace('T', ' ');

export interface ExportSource {
  /** The file's name without the extension, e.g. 'payments'. */
  name: string;
  header: readonly string[];
  /** The rows, oldest first; walked by a server-side cursor, never read whole. */
  query: SQL;
  cells(row: Record<string, unknown>): CsvValue[];
}

type Row = Record<string, unknown>;
const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));
const instant = (value: unknown) => kstCell((value as Date | string | null) ?? null);
const maskedName = (value: unknown) => maskName(String(value ?? ''));
const maskedAccount = (value: unknown) => maskAccount(String(value ?? ''));

type RangeKind = Exclude<ExportKind, 'month-end'>;

/** Each kind's source for the instants [start, end) of its KST days. */
const SOURCES: Record<RangeKind, (start: Date, end: Date, range: ExportRange) => Omit<ExportSource, 'name'>> = {
  payments: (start, end) => ({
    header: [
      '결제 번호',
      '결제 일시',
      '고객 번호',
      '고객명',
      '가맹점',
      '상품명',
      '결제 금액',
      '사용 포인트',
      '청구 금액',
      '적립 포인트',
      '청구 월',
      '상태',
    ],
    query: sql`select p.id, p.created_at, p.customer_id, c.name, m.name as merchant, p.request_name,
        p.total_price, p.point_used, p.price, p.point_earned, p.statement_month, p.status
      from purchases p join customers c on c.id = p.customer_id join merchants m on m.id = p.merchant_id
      where p.created_at >= ${start} and p.created_at < ${end}
      order by p.created_at, p.id`,
    cells: (r: Row) => [
      num(r.id),
      instant(r.created_at),
      num(r.customer_id),
      maskedName(r.name),
      text(r.merchant),
      text(r.request_name),
      num(r.total_price),
      num(r.point_used),
      num(r.price),
      num(r.point_earned),
      text(r.statement_month),
      text(r.status),
    ],
  }),
  refunds: (start, end) => ({
    header: [
      '결제 번호',
      '환불 일시',
      '고객 번호',
      '고객명',
      '가맹점',
      '상품명',
      '결제 금액',
      '돌려준 포인트',
      '청구에서 뺀 금액',
      '계좌로 돌려줄 금액',
    ],
    query: sql`select p.id, p.refunded_at, p.customer_id, c.name, m.name as merchant, p.request_name,
        p.total_price, p.point_used, p.price, coalesce(rp.amount, 0) as payout
      from purchases p join customers c on c.id = p.customer_id join merchants m on m.id = p.merchant_id
      left join refund_payouts rp on rp.purchase_id = p.id
      where p.refunded_at >= ${start} and p.refunded_at < ${end}
      order by p.refunded_at, p.id`,
    cells: (r: Row) => [
      num(r.id),
      instant(r.refunded_at),
      num(r.customer_id),
      maskedName(r.name),
      text(r.merchant),
      text(r.request_name),
      num(r.total_price),
      num(r.point_used),
      Number(r.price) - Number(r.payout),
      num(r.payout),
    ],
  }),
  repayments: (start, end) => ({
    header: ['납부 번호', '납부 일시', '고객 번호', '고객명', '납부 금액', '내역 수', '방법', '은행', '계좌'],
    // The autopay repayments' ids are hashed once (a join), not looked up per row: the attempts have no index on them.
    query: sql`select r.id, r.created_at, r.customer_id, c.name, r.amount, jsonb_array_length(r.purchase_ids) as lines,
        auto.repayment_id is not null as autopay, r.account_name, r.account
      from repayments r join customers c on c.id = r.customer_id
      left join (select distinct repayment_id from autopay_attempts where repayment_id is not null) auto
        on auto.repayment_id = r.id
      where r.created_at >= ${start} and r.created_at < ${end}
      order by r.created_at, r.id`,
    cells: (r: Row) => [
      num(r.id),
      instant(r.created_at),
      num(r.customer_id),
      maskedName(r.name),
      num(r.amount),
      num(r.lines),
      r.autopay ? '자동 납부' : '직접 납부',
      text(r.account_name),
      maskedAccount(r.account),
    ],
  }),
  'autopay-attempts': (_start, _end, range) => ({
    header: [
      '시도 번호',
      '출금일',
      '고객 번호',
      '고객명',
      '청구 월',
      '상태',
      '출금 요청 금액',
      '은행 응답',
      '시도 횟수',
      '끝난 시각',
    ],
    query: sql`select a.id, a.kst_date::text as kst_date, a.customer_id, c.name, s.month, a.status, a.amount,
        a.result, a.tries, a.finished_at
      from autopay_attempts a join customers c on c.id = a.customer_id join statements s on s.id = a.statement_id
      where a.kst_date >= ${range.from}::date and a.kst_date <= ${range.to}::date
      order by a.kst_date, a.id`,
    cells: (r: Row) => [
      num(r.id),
      text(r.kst_date),
      num(r.customer_id),
      maskedName(r.name),
      text(r.month),
      text(r.status),
      num(r.amount),
      text(r.result),
      num(r.tries),
      instant(r.finished_at),
    ],
  }),
  'audit-log': (start, end) => ({
    header: ['기록 번호', '일시', '운영자 번호', '운영자', '역할', '작업', '대상 종류', '대상', '사유', '이전', '이후'],
    query: sql`select id, at, staff_id, staff_name, role, action, target_type, target_id, reason,
        before::text as before, after::text as after
      from audit_log where at >= ${start} and at < ${end}
      order by at, id`,
    cells: (r: Row) => [
      num(r.id),
      instant(r.at),
      num(r.staff_id),
      text(r.staff_name),
      text(r.role),
      text(r.action),
      text(r.target_type),
      text(r.target_id),
      text(r.reason),
      text(r.before),
      text(r.after),
    ],
  }),
};

/** The source of a range export over the KST days `range.from`–`range.to`, both included. */
export function rangeSource(kind: RangeKind, range: ExportRange): ExportSource {
  const source = SOURCES[kind](kstStartOfDay(range.from), kstEndOfDay(range.to), range);
  return { name: `${kind}_${range.from}_${range.to}`, ...source };
}
