import type { OpsHome } from '@ohgood/contract/ops';
import type { ReconciliationDay, ReconciliationDetail } from '@ohgood/contract/reconciliation';
import { QueryClientProvider } from '@tanstack/react-query';
import { render as renderScreen, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { opsHome } from '../../test/ops-home-fixture';
import { stubFetch } from '../../test/stub-fetch';
import { createConsoleQueryClient } from './api/query-client';
import { opsToken } from './api/staff-api';
import { Home } from './pages/home';
import { Reconciliation } from './pages/reconciliation';

/*
 * The console's daily reconciliation screen and the home's count (docs/rules/bills-and-grades.md#B20) against
 * a stubbed network: the days with both sides' figures, one day's mismatches named in Korean, the empty and
 * the error-with-retry states; the home's mismatch count and open staff alerts.
 */
/** Each screen on its own fresh console cache, as the console mounts it. */
function render(screenElement: ReactElement) {
  return renderScreen(<QueryClientProvider client={createConsoleQueryClient()}>{screenElement}</QueryClientProvider>);
}

const side = (count: number, sum: number) => ({ count, sum });
const day = (overrides: Partial<ReconciliationDay> = {}): ReconciliationDay => ({
  day: '2026-12-15',
  reconciledAt: '2026-12-16T01:30:00+09:00',
  bank: { debits: side(4, 112_000), credits: side(1, 5_000) },
  books: { debits: side(4, 132_000), credits: side(0, 0) },
  mismatchCount: 2,
  ...overrides,
});
const detail: ReconciliationDetail = {
  ...day(),
  mismatches: [
    {
      kind: 'amount_differs',
      movement: 'autopay_debit',
      direction: 'debit',
      reference: 'autopay:12:2026-12-15',
      bankAmount: 34_000,
      bookAmount: 33_000,
    },
    {
      kind: 'missing_in_books',
      movement: 'surplus_refund',
      direction: 'credit',
      reference: 'autopay-surplus:88',
      bankAmount: 5_000,
      bookAmount: null,
    },
  ],
};

const failure = () =>
  new Response(JSON.stringify({ success: false, code: 'INTERNAL', message: '잠시 후 다시 시도해주세요.' }), {
    status: 500,
  });

beforeEach(() => opsToken.set('staff-token'));
afterEach(() => vi.unstubAllGlobals());

describe('the reconciliation screen', () => {
  it('lists the days and opens one day’s mismatches, named in Korean', async () => {
    const user = userEvent.setup();
    stubFetch({
      'GET /api/ops/reconciliations': () => ({ items: [day(), day({ day: '2026-12-14', mismatchCount: 0 })] }),
      'GET /api/ops/reconciliations/2026-12-15': () => detail,
    });
    render(<Reconciliation />);
    const table = await screen.findByRole('table');
    const [, first, second] = within(table).getAllByRole('row');
    expect(first).toHaveTextContent('2026-12-15');
    expect(first).toHaveTextContent('4건 112,000원');
    expect(first).toHaveTextContent('2건');
    expect(second).toHaveTextContent('없음');

    await user.click(screen.getByRole('button', { name: '2026-12-15 대사 상세' }));
    const section = await screen.findByRole('region', { name: '2026-12-15 대사' });
    const rows = within(section).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('금액 불일치');
    expect(rows[1]).toHaveTextContent('자동 납부 출금');
    expect(rows[1]).toHaveTextContent('autopay:12:2026-12-15');
    expect(rows[1]).toHaveTextContent('34,000원');
    expect(rows[1]).toHaveTextContent('33,000원');
    expect(rows[2]).toHaveTextContent('장부에 없는 은행 거래');
    expect(rows[2]).toHaveTextContent('초과 출금 환급');
  });

  it('says so when no day has been reconciled yet', async () => {
    stubFetch({ 'GET /api/ops/reconciliations': () => ({ items: [] }) });
    render(<Reconciliation />);
    expect(await screen.findByText('아직 대사한 날이 없어요.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows a failed read with a retry that reads again', async () => {
    const user = userEvent.setup();
    let tries = 0;
    stubFetch({
      'GET /api/ops/reconciliations': () => {
        tries += 1;
        return tries === 1 ? failure() : { items: [day()] };
      },
    });
    render(<Reconciliation />);
    expect(await screen.findByRole('alert')).toHaveTextContent('잠시 후 다시 시도해주세요.');
    await user.click(screen.getByRole('button', { name: '다시 시도' }));
    expect(await screen.findByRole('table')).toHaveTextContent('2026-12-15');
    expect(tries).toBe(2);
  });
});

describe('the console home', () => {
  const home = (overrides: Partial<OpsHome> = {}): OpsHome =>
    opsHome({
      date: '2026-12-16',
      reconciliation: { day: '2026-12-15', mismatches: 5 },
      alerts: [
        {
          id: 1,
          kind: 'reconciliation',
          subject: '2026-12-15',
          message: '2026-12-15 대사에서 불일치 5건이 발견됐어요. 운영 콘솔의 대사 화면에서 확인해주세요.',
          raisedAt: '2026-12-16T01:30:00+09:00',
        },
      ],
      ...overrides,
    });

  it('shows the latest day’s mismatch count and the open alerts', async () => {
    stubFetch({ 'GET /api/ops/home': () => home() });
    render(<Home staffRole="SUPPORT" onOpen={() => undefined} />);
    expect(await screen.findByText('대사 불일치 (2026-12-15)')).toBeInTheDocument();
    expect(screen.getByText('5건')).toBeInTheDocument();
    const alerts = screen.getByRole('region', { name: '확인할 알림' });
    expect(within(alerts).getByRole('listitem')).toHaveTextContent('2026-12-15 대사에서 불일치 5건이 발견됐어요.');
  });

  it('says when nothing has been reconciled and nothing needs a look', async () => {
    stubFetch({ 'GET /api/ops/home': () => home({ reconciliation: null, alerts: [] }) });
    render(<Home staffRole="SUPPORT" onOpen={() => undefined} />);
    expect(await screen.findByText('대사 전')).toBeInTheDocument();
    expect(screen.getByText('확인할 알림이 없어요.')).toBeInTheDocument();
  });
});
