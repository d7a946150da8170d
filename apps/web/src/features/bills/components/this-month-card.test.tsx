import type { PayThisMonth } from '@ohgood/contract/bills';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../../shared/auth-token';
import { TICKER_MS } from './recent-ticker';
import ThisMonthCard from './this-month-card';

const line = (id: number, date: string, merchant: string, requestName: string, amount: number, point: number) => ({
  paymentId: id,
  date,
  requestName,
  totalPrice: amount,
  point,
  id,
  merchant,
  amount,
});
/** The bare body of GET /api/dash/me/pay-this-month: the original names and ours side by side. */
const month: PayThisMonth = {
  month: '2026-11',
  sumTotalPrice: 41_000,
  sumPointThisMonth: 120,
  currentPointBalance: 860,
  amount: 41_000,
  pointsThisMonth: 120,
  pointBalance: 860,
  items: [
    line(3, '2026-11-20T14:00:00+09:00', 'CGV 용산', '영화', 15_000, 150),
    line(2, '2026-11-10T14:00:00+09:00', 'GS25', '편의점', 2_400, 0),
    line(1, '2026-11-02T14:00:00+09:00', '올리브영', '화장품', 23_600, 0),
  ],
};
let suspended = false;

function json(body: unknown) {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
}

let reduced = false;
beforeEach(() => {
  setToken('token');
  suspended = false;
  reduced = false;
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: reduced && query.includes('reduce'),
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    })),
  );
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/dash/me/pay-this-month') return json(month);
      return json({
        success: true,
        message: 'OK',
        data: {
          today: '2026-11-22',
          suspended,
          overdueAmount: suspended ? 55_000 : 0,
          statements: suspended
            ? [
                {
                  month: '2026-09',
                  dueDate: '2026-10-31',
                  extension: 'AUTO',
                  status: 'OVERDUE',
                  amount: 55_000,
                  count: 2,
                },
              ]
            : [],
        },
      });
    }),
  );
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function renderCard() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ThisMonthCard />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('this-month card', () => {
  it('shows the amount and points, and rotates the ticker every 3 s once the page idles, pausing on hover', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    // The browser's idle moments, given by hand: the ticker's first turn is timed from one.
    const idle: Array<() => void> = [];
    vi.stubGlobal('requestIdleCallback', (run: () => void) => idle.push(run));
    renderCard();
    expect(await screen.findByTestId('this-month-amount')).toHaveTextContent('41,000원');
    expect(screen.getByText('11월 오굿페이 이용 금액')).toBeInTheDocument();
    expect(screen.getByText('120P')).toBeInTheDocument();
    expect(screen.getByTestId('ticker-item')).toHaveTextContent('CGV 용산');
    // Still loading (no idle moment yet): no turn, however long it takes.
    await act(async () => {
      vi.advanceTimersByTime(TICKER_MS * 2);
    });
    expect(screen.getByTestId('ticker-item')).toHaveTextContent('CGV 용산');
    await act(async () => {
      for (const run of idle.splice(0)) run();
    });
    await act(async () => {
      vi.advanceTimersByTime(TICKER_MS);
    });
    expect(screen.getByTestId('ticker-item')).toHaveTextContent('GS25');
    fireEvent.mouseEnter(screen.getByTestId('ticker'));
    await act(async () => {
      vi.advanceTimersByTime(TICKER_MS * 3);
    });
    expect(screen.getByTestId('ticker-item')).toHaveTextContent('GS25');
    fireEvent.mouseLeave(screen.getByTestId('ticker'));
    await act(async () => {
      vi.advanceTimersByTime(TICKER_MS);
    });
    expect(screen.getByTestId('ticker-item')).toHaveTextContent('올리브영');
  });

  it('does not rotate for reduced-motion users: a still list instead', async () => {
    reduced = true;
    renderCard();
    const list = await screen.findByRole('list', { name: '최근 이용 내역' });
    expect(list.querySelectorAll('li')).toHaveLength(3);
    expect(screen.queryByTestId('ticker-item')).toBeNull();
  });

  it('tells a suspended customer why and what to pay', async () => {
    suspended = true;
    renderCard();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('결제가 정지되었어요');
    expect(alert).toHaveTextContent('9월 이용분');
    expect(alert).toHaveTextContent('55,000원');
    expect(screen.getByRole('link', { name: '연체 금액 납부하기' })).toHaveAttribute('href', '/payment');
  });
});
