import { AGEING_LABELS, type MonthEndReport, type Tally } from '@ohgood/contract/month-end';
import type { CsvValue } from './csv';

/** The month-end report as CSV records: section, item, count, won (the console's table, line for line). */
export const MONTH_END_HEADER = ['구분', '항목', '건수', '금액'] as const;

export function monthEndRows(report: MonthEndReport): CsvValue[][] {
  const s = report.statements;
  const tally = (section: string, item: string, t: Tally): CsvValue[] => [section, item, t.count, t.amount];
  const bill = `${report.month} 청구 (${report.asOf} 기준)`;
  const ageing = `채권 연령 (${report.asOf} 기준)`;
  const merchants = `${report.month} 가맹점`;
  return [
    tally(bill, '청구', s.issued),
    tally(bill, '미납 중 환불', s.refundedUnpaid),
    tally(bill, '기한 내 직접 납부', s.paidEarly),
    tally(bill, '자동 납부', s.autopaid),
    tally(bill, '기한 후 납부', s.paidLate),
    tally(bill, '미납 잔액', s.outstanding),
    tally(bill, '대손 처리', s.writtenOff),
    [bill, '연장 (고객)', s.extended.manual, null],
    [bill, '연장 (자동)', s.extended.auto, null],
    tally(bill, '연체', s.overdue),
    tally(bill, '자동 납부 실패', s.failedDebits),
    ...report.ageing.buckets.map((b): CsvValue[] => [ageing, AGEING_LABELS[b.bucket], b.customers, b.amount]),
    [ageing, '합계', null, report.ageing.total],
    [ageing, '원장 고객 채권', null, report.ageing.ledgerReceivable],
    [merchants, '매출', null, report.merchants.sales],
    [merchants, '환불', null, report.merchants.refunds],
    [merchants, '수수료', null, report.merchants.fees],
    [merchants, '정산 지급', null, report.merchants.payouts],
  ];
}
