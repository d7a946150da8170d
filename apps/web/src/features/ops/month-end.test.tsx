import type { MonthEndReport } from '@ohgood/contract/month-end';
import { QueryClientProvider } from '@tanstack/react-query';
import { render as renderScreen, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../test/stub-fetch';
import { createConsoleQueryClient } from './api/query-client';
import { opsToken } from './api/staff-api';
import { describeChange } from './audit-change';
import { sectionsFor } from './console-access';
import { MonthEnd } from './pages/month-end';

/*
 * 월말 보고서 (docs/rules/operations.md#O14–O15) against a stubbed network: the month's figures and the ageing
 * beside the ledger, the empty and error-with-retry states, what each role sees, and a CSV download saved with
 * its BOM and Hangul intact, or its failure said with a retry.
 */

function render(element: ReactElement) {
  return renderScreen(<QueryClientProvider client={createConsoleQueryClient()}>{element}</QueryClientProvider>);
}

const tally = (count: number, amount: number) => ({ count, amount });
const report = (overrides: Partial<MonthEndReport['statements']> = {}): MonthEndReport => ({
  month: '2026-11',
  asOf: '2027-01-20',
  dueDate: '2026-12-15',
  extendedDueDate: '2026-12-31',
  statements: {
    issued: tally(5, 165_500),
    refundedUnpaid: tally(1, 5_000),
    paidEarly: tally(3, 58_000),
    autopaid: tally(2, 42_500),
    paidLate: tally(1, 15_000),
    outstanding: tally(1, 50_000),
    writtenOff: tally(0, 0),
    extended: { manual: 1, auto: 2 },
    overdue: tally(2, 50_000),
    failedDebits: tally(2, 100_000),
    ...overrides,
  },
  ageing: {
    buckets: [
      { bucket: 'current', customers: 0, amount: 0 },
      { bucket: 'd1to30', customers: 2, amount: 60_000 },
      { bucket: 'd31to60', customers: 0, amount: 0 },
      { bucket: 'd61plus', customers: 0, amount: 0 },
    ],
    total: 60_000,
    ledgerReceivable: 60_000,
  },
  merchants: { sales: 176_500, refunds: 15_000, fees: 0, payouts: 0 },
});

const csvResponse = (text: string) =>
  new Response(`\uFEFF${text}`, { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' } });
const failing = (status: number, code: string, message: string) =>
  new Response(JSON.stringify({ success: false, code, message }), { status });

let saved: Blob[];
beforeEach(() => {
  opsToken.set('staff-token');
  saved = [];
  URL.createObjectURL = vi.fn((blob: Blob) => {
    saved.push(blob);
    return 'blob:month-end';
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the month-end screen', () => {
  it('shows the month’s figures and the ageing beside the ledger', async () => {
    stubFetch({ 'GET /api/ops/reports/month-end': () => report() });
    render(<MonthEnd staffRole="RISK" />);
    const bill = await screen.findByRole('table', { name: '2026-11 청구' });
    expect(within(bill).getByRole('row', { name: /자동 납부 2건 42,500원/ })).toBeInTheDocument();
    expect(within(bill).getByRole('row', { name: /연장 고객 1건 · 자동 2건/ })).toBeInTheDocument();
    expect(within(bill).getByRole('row', { name: /연체 2건 미납 50,000원/ })).toBeInTheDocument();
    const ageing = screen.getByRole('table', { name: /연체 기간별 채권/ });
    expect(within(ageing).getByRole('row', { name: /1–30일 2명 60,000원/ })).toBeInTheDocument();
    expect(within(ageing).getByRole('row', { name: /원장 고객 채권 일치 60,000원/ })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: '2026-11 가맹점 (원장)' })).toHaveTextContent('수수료0원');
  });

  it('says when the month billed nothing, and when the ageing disagrees with the ledger', async () => {
    const empty = report({ issued: tally(0, 0), refundedUnpaid: tally(0, 0) });
    stubFetch({
      'GET /api/ops/reports/month-end': () => ({ ...empty, ageing: { ...empty.ageing, ledgerReceivable: 59_000 } }),
    });
    render(<MonthEnd staffRole="ADMIN" />);
    expect(await screen.findByText('2026-11에 청구된 내역이 없어요.')).toBeInTheDocument();
    expect(screen.getByText('불일치 1,000원')).toBeInTheDocument();
  });

  it('shows a failed read with a retry that reads again', async () => {
    const user = userEvent.setup();
    let calls = 0;
    stubFetch({
      'GET /api/ops/reports/month-end': () =>
        ++calls === 1 ? failing(500, 'INTERNAL', '잠시 후 다시 시도해주세요.') : report(),
    });
    render(<MonthEnd staffRole="RISK" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('잠시 후 다시 시도해주세요.');
    await user.click(screen.getByRole('button', { name: '다시 시도' }));
    expect(await screen.findByRole('table', { name: '2026-11 청구' })).toBeInTheDocument();
  });

  it('downloads the report as a CSV that keeps its BOM and Hangul', async () => {
    const user = userEvent.setup();
    const calls = stubFetch({
      'GET /api/ops/reports/month-end': () => report(),
      'GET /api/ops/exports/month-end.csv': () => csvResponse('구분,항목,건수,금액\r\n2026-11 청구,청구,5,165500\r\n'),
    });
    render(<MonthEnd staffRole="RISK" />);
    await user.click(await screen.findByRole('button', { name: '월말 보고서 CSV 내려받기' }));
    expect(await screen.findByRole('button', { name: '월말 보고서 CSV 내려받기' })).toBeEnabled();
    expect(calls.map((c) => c.path)).toContain('/api/ops/exports/month-end.csv');
    expect(saved).toHaveLength(1);
    const bytes = new Uint8Array(await (saved[0] as Blob).arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.subarray(3));
    expect(text).toBe('구분,항목,건수,금액\r\n2026-11 청구,청구,5,165500\r\n');
  });

  it('says a refused download and offers it again', async () => {
    const user = userEvent.setup();
    let tries = 0;
    stubFetch({
      'GET /api/ops/reports/month-end': () => report(),
      'GET /api/ops/exports/payments.csv': () =>
        ++tries === 1
          ? failing(429, 'RATE_LIMITED', '다른 내려받기가 진행 중이에요. 끝난 뒤 다시 시도해 주세요.')
          : csvResponse('결제 번호\r\n'),
    });
    render(<MonthEnd staffRole="ADMIN" />);
    await user.click(screen.getByRole('button', { name: '결제 내역 CSV 내려받기' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('다른 내려받기가 진행 중이에요.');
    await user.click(screen.getByRole('button', { name: '결제 내역 다시 내려받기' }));
    expect(await screen.findByRole('button', { name: '결제 내역 CSV 내려받기' })).toBeEnabled();
    expect(saved).toHaveLength(1);
  });

  it('shows support the files it may take and no report; moderators not the screen', async () => {
    const calls = stubFetch({});
    render(<MonthEnd staffRole="SUPPORT" />);
    expect(screen.getByText(/보고서는 리스크·관리자만 볼 수 있어요/)).toBeInTheDocument();
    const buttons = screen.getAllByRole('button').map((b) => b.textContent);
    expect(buttons).toEqual([
      '결제 내역 CSV 내려받기',
      '환불 내역 CSV 내려받기',
      '납부 내역 CSV 내려받기',
      '자동 납부 출금 내역 CSV 내려받기',
    ]);
    expect(calls).toEqual([]);
    expect(sectionsFor('MODERATOR').map((s) => s.id)).not.toContain('month-end');
    expect(sectionsFor('SUPPORT').map((s) => s.id)).toContain('month-end');
  });

  it('reads an export’s audit row in words', () => {
    expect(describeChange(null, { from: '2026-11-01', to: '2026-11-30', rows: 12_345 }, 'export.download')).toBe(
      '시작일 2026-11-01, 종료일 2026-11-30, 내려받은 행 12,345줄',
    );
  });
});
