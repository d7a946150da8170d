import type { StaffRole } from '@ohgood/contract/endpoint';
import { addMonths, daysInMonth, kstMonth } from '@ohgood/contract/kst';
import {
  AGEING_LABELS,
  monthEndEndpoints as api,
  type ExportRange,
  type MonthEndReport,
  rangeExportEndpoints,
  type Tally,
} from '@ohgood/contract/month-end';
import { useState } from 'react';
import { number, won } from '../../../shared/format';
import { notify } from '../../../shared/notify';
import { downloadCsv, useMonthEndReport } from '../api/month-end';
import { callOps } from '../api/staff-api';
import { failure, Status } from '../components/console-ui';
import styles from '../components/ops-console.module.css';
import { canCall } from '../console-access';

/** The range exports, in the order finance reconciles them. */
const RANGE_EXPORTS: ReadonlyArray<{ kind: keyof typeof rangeExportEndpoints; label: string }> = [
  { kind: 'payments', label: '결제' },
  { kind: 'refunds', label: '환불' },
  { kind: 'repayments', label: '납부' },
  { kind: 'autopay-attempts', label: '자동 납부 출금' },
  { kind: 'audit-log', label: '감사 기록' },
];

/** The statement month the page opens on: the one issued last (the month before this one). */
export const lastIssuedMonth = (now: Date = new Date()) => addMonths(kstMonth(now), -1);

/**
 * 월말 보고서 (docs/rules/operations.md#O14–O15): one statement month's figures and every customer's receivables by
 * age, read as of a day, and the CSV downloads. A role sees the report and the files it may read (RISK and ADMIN
 * all; SUPPORT the payments, refunds, repayments and autopay files).
 */
export function MonthEnd({ staffRole }: { staffRole: StaffRole }) {
  const [month, setMonth] = useState(lastIssuedMonth);
  const [asOf, setAsOf] = useState('');
  const [range, setRange] = useState<ExportRange>(() => monthRange(lastIssuedMonth()));
  const readsReport = canCall(api.monthEndReport, staffRole);
  const pickMonth = (next: string) => {
    if (!/^\d{4}-\d{2}$/.test(next)) return;
    setMonth(next);
    setRange(monthRange(next));
  };
  return (
    <>
      <section className={styles.card} aria-labelledby="month-end-title">
        <h2 id="month-end-title">월말 보고서</h2>
        <div className={styles.filters}>
          <label>
            청구 월
            <input className={styles.input} type="month" value={month} onChange={(e) => pickMonth(e.target.value)} />
          </label>
          {readsReport && (
            <label>
              기준일 (비우면 오늘)
              <input className={styles.input} type="date" value={asOf} onChange={(e) => setAsOf(e.target.value)} />
            </label>
          )}
        </div>
        {readsReport ? (
          <Report month={month} asOf={asOf} />
        ) : (
          <p className={styles.muted}>
            보고서는 리스크·관리자만 볼 수 있어요. 아래에서 내역 파일을 내려받을 수 있어요.
          </p>
        )}
      </section>
      <section className={styles.card} aria-labelledby="exports-title">
        <h2 id="exports-title">내역 내려받기 (CSV)</h2>
        <p className={styles.muted}>
          엑셀에서 바로 열리는 파일이에요 (UTF-8). 개인정보는 화면처럼 가려지고, 내려받을 때마다 감사 기록에 남아요.
        </p>
        <div className={styles.filters}>
          <label>
            시작일
            <input
              className={styles.input}
              type="date"
              value={range.from}
              onChange={(e) => setRange((r) => ({ ...r, from: e.target.value }))}
            />
          </label>
          <label>
            종료일
            <input
              className={styles.input}
              type="date"
              value={range.to}
              onChange={(e) => setRange((r) => ({ ...r, to: e.target.value }))}
            />
          </label>
        </div>
        <div className={styles.actions}>
          {RANGE_EXPORTS.filter(({ kind }) => canCall(rangeExportEndpoints[kind], staffRole)).map(({ kind, label }) => (
            <DownloadButton
              key={kind}
              label={`${label} 내역`}
              run={() =>
                downloadCsv(`${kind}_${range.from}_${range.to}.csv`, () =>
                  callOps(rangeExportEndpoints[kind], { query: range, timeout: null }),
                )
              }
            />
          ))}
        </div>
      </section>
    </>
  );
}

/** The KST days of a month, first to last. */
function monthRange(month: string): ExportRange {
  return { from: `${month}-01`, to: `${month}-${daysInMonth(month)}` };
}

function Report({ month, asOf }: { month: string; asOf: string }) {
  const read = useMonthEndReport(month, asOf || undefined);
  const r = read.data;
  return (
    <>
      <Status read={read} />
      {r && (
        <>
          <p className={styles.muted}>
            {r.asOf} 기준 · 납부 기한 {r.dueDate} (연장 시 {r.extendedDueDate})
          </p>
          <DownloadButton
            label="월말 보고서"
            run={() =>
              downloadCsv(`month-end_${r.month}_${r.asOf}.csv`, () =>
                callOps(api.exportMonthEnd, { query: { month: r.month, asOf: r.asOf }, timeout: null }),
              )
            }
          />
          <Statements report={r} />
          <Ageing report={r} />
          <Merchants report={r} />
        </>
      )}
    </>
  );
}

function Statements({ report }: { report: MonthEndReport }) {
  const s = report.statements;
  if (s.issued.count === 0 && s.refundedUnpaid.count === 0) {
    return <p>{report.month}에 청구된 내역이 없어요.</p>;
  }
  const rows: Array<[string, string, string]> = [
    ['청구', `${number(s.issued.count)}명`, won(s.issued.amount)],
    ['미납 중 환불', lines(s.refundedUnpaid), won(s.refundedUnpaid.amount)],
    ['기한 내 직접 납부', lines(s.paidEarly), won(s.paidEarly.amount)],
    ['자동 납부', lines(s.autopaid), won(s.autopaid.amount)],
    ['기한 후 납부', lines(s.paidLate), won(s.paidLate.amount)],
    ['미납 잔액', lines(s.outstanding), won(s.outstanding.amount)],
    ['대손 처리', lines(s.writtenOff), won(s.writtenOff.amount)],
    ['연장', `고객 ${number(s.extended.manual)}건 · 자동 ${number(s.extended.auto)}건`, ''],
    ['연체', `${number(s.overdue.count)}건`, `미납 ${won(s.overdue.amount)}`],
    ['자동 납부 실패', `${number(s.failedDebits.count)}건`, won(s.failedDebits.amount)],
  ];
  return (
    <table className={styles.table}>
      <caption>{report.month} 청구</caption>
      <thead>
        <tr>
          <th scope="col">항목</th>
          <th scope="col">건수</th>
          <th scope="col">금액</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([item, count, amount]) => (
          <tr key={item}>
            <th scope="row">{item}</th>
            <td>{count}</td>
            <td>{amount}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const lines = (t: Tally) => `${number(t.count)}건`;

function Ageing({ report }: { report: MonthEndReport }) {
  const a = report.ageing;
  const agrees = a.total === a.ledgerReceivable;
  return (
    <table className={styles.table}>
      <caption>연체 기간별 채권 ({report.asOf} 기준, 전체 고객)</caption>
      <thead>
        <tr>
          <th scope="col">연체 기간</th>
          <th scope="col">고객</th>
          <th scope="col">금액</th>
        </tr>
      </thead>
      <tbody>
        {a.buckets.map((b) => (
          <tr key={b.bucket}>
            <th scope="row">{AGEING_LABELS[b.bucket]}</th>
            <td>{number(b.customers)}명</td>
            <td>{won(b.amount)}</td>
          </tr>
        ))}
        <tr>
          <th scope="row">합계</th>
          <td />
          <td>{won(a.total)}</td>
        </tr>
        <tr>
          <th scope="row">원장 고객 채권</th>
          <td>
            {agrees ? (
              <span className={styles.tag}>일치</span>
            ) : (
              <span className={styles.tagDanger}>불일치 {won(a.total - a.ledgerReceivable)}</span>
            )}
          </td>
          <td>{won(a.ledgerReceivable)}</td>
        </tr>
      </tbody>
    </table>
  );
}

function Merchants({ report }: { report: MonthEndReport }) {
  const m = report.merchants;
  return (
    <table className={styles.table}>
      <caption>{report.month} 가맹점 (원장)</caption>
      <tbody>
        {(
          [
            ['매출', m.sales],
            ['환불', m.refunds],
            ['수수료', m.fees],
            ['정산 지급', m.payouts],
          ] as const
        ).map(([item, amount]) => (
          <tr key={item}>
            <th scope="row">{item}</th>
            <td>{won(amount)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One download: busy while it streams, its failure said with a retry (the button itself). */
function DownloadButton({ label, run }: { label: string; run: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      await run();
      notify(`${label} 파일을 내려받았어요.`);
    } catch (e) {
      setError(failure(e));
      notify(`${label} 파일을 내려받지 못했어요.`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span>
      <button type="button" className={styles.button} disabled={busy} aria-busy={busy} onClick={() => void start()}>
        {busy ? `${label} 내려받는 중...` : error ? `${label} 다시 내려받기` : `${label} CSV 내려받기`}
      </button>
      {error && (
        <span className={styles.error} role="alert">
          {' '}
          {error}
        </span>
      )}
    </span>
  );
}
