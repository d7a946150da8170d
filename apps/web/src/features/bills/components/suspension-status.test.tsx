import type { BillStatus } from '@ohgood/contract/bills';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../../shared/auth-token';
import SuspensionStatus from './suspension-status';

/* /mypage's suspension notice (composed in by the app): the reason on record, in its own words. */

let status: BillStatus;
const base: BillStatus = {
  today: '2026-12-05',
  suspended: false,
  suspensionReason: null,
  overdueAmount: 0,
  statements: [],
  limitChange: null,
};

beforeEach(() => {
  setToken('token');
  status = base;
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(JSON.stringify({ success: true, message: 'OK', data: status }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    ),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderIt() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <SuspensionStatus />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('suspension on /mypage', () => {
  it('an operator’s suspension names no bill and sends to the customer centre', async () => {
    status = { ...base, suspended: true, suspensionReason: 'STAFF' };
    renderIt();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('운영 정책에 따라 새 결제가 정지되었어요');
    expect(alert).toHaveTextContent('고객센터');
    expect(alert).not.toHaveTextContent('연체');
  });

  it('an overdue suspension names the month and the amount to pay', async () => {
    status = {
      ...base,
      suspended: true,
      suspensionReason: 'OVERDUE',
      overdueAmount: 30_000,
      statements: [
        { month: '2026-10', dueDate: '2026-11-15', extension: null, status: 'OVERDUE', amount: 30_000, count: 1 },
      ],
    };
    renderIt();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('10월 이용분의 납부 기한이 지나');
    expect(alert).toHaveTextContent('30,000원');
  });

  it('says nothing when payments are not suspended', async () => {
    const { container } = renderIt();
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(container).toBeEmptyDOMElement();
  });
});
