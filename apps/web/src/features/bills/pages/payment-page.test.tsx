import { BILL_MSG } from '@ohgood/contract/bill-messages';
import type { BillStatus, PaymentInfo } from '@ohgood/contract/bills';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../../shared/auth-token';
import { pendingAutopay } from '../../../test/autopay-fixtures';
import { idleMomentsByHand } from '../../../test/idle-moments';
import { resetToastLog, toastLog } from '../../../test/toast-log';
import PaymentPage from './payment-page';
// The page loads the list's module lazily: loaded here too, so a cold transform never outlasts a findBy's wait.
import '../components/unpaid-list';

const line = (paymentId: number, date: string, price: number, requestName = `상품${paymentId}`) => ({
  paymentId,
  date,
  requestName,
  price,
  totalPrice: price,
  point: 0,
});

function makeInfo(overrides: Partial<PaymentInfo> = {}): PaymentInfo {
  return {
    customerId: 1,
    account: '1002345678901',
    accountName: '토스',
    auto: false,
    extension: false,
    balance: 75_000,
    gradeName: 'bronze',
    pointPercentage: 0.2,
    limitPrice: 100_000,
    unpaidBills: [
      [line(1, '2026-10-05T14:00:00+09:00', 12_000, '카페라떼'), line(2, '2026-10-20T14:00:00+09:00', 8_000, '택시')],
      [line(3, '2026-11-03T14:00:00+09:00', 25_000, '영화')],
    ],
    ...overrides,
  };
}
const normalStatus: BillStatus = {
  today: '2026-11-12',
  suspended: false,
  suspensionReason: null,
  overdueAmount: 0,
  statements: [
    { month: '2026-10', dueDate: '2026-11-15', extension: null, status: 'DUE', amount: 20_000, count: 2 },
    { month: '2026-11', dueDate: '2026-12-15', extension: null, status: 'OPEN', amount: 25_000, count: 1 },
  ],
  limitChange: null,
};

let info: PaymentInfo;
let status: BillStatus;
let calls: Array<{ url: string; method: string; body: unknown }>;
const alerts = toastLog;

function json(body: unknown, statusCode = 200) {
  return new Response(JSON.stringify(body), { status: statusCode, headers: { 'content-type': 'application/json' } });
}

/** Autopay is debiting the lines right now (docs/rules/bills-and-grades.md#B18). */
let autopayCollecting = false;
/** Released when a test lets the autopay setting answer (undefined: the endpoint answers 404). */
let autopayAnswered: Promise<void> | undefined;

beforeEach(() => {
  setToken('token');
  autopayCollecting = false;
  autopayAnswered = undefined;
  info = makeInfo();
  status = normalStatus;
  calls = [];
  resetToastLog();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      calls.push({ url, method, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (url === '/api/payment/info') return json(info);
      if (url === '/api/payment/autopay' && autopayAnswered)
        return autopayAnswered.then(() => json({ success: true, message: 'OK', data: pendingAutopay }));
      if (url === '/api/payment/statements') return json({ success: true, message: 'OK', data: status });
      if (url === '/api/payment/extension') {
        info = makeInfo({ extension: true });
        return json({
          success: true,
          message: '연장 신청되었습니다.',
          data: { month: '2026-10', dueDate: '2026-11-30' },
        });
      }
      if (url === '/api/payment/immediately' && autopayCollecting) {
        return json({ success: false, code: 'AUTOPAY_IN_PROGRESS', message: BILL_MSG.autopayInProgress }, 409);
      }
      if (url === '/api/payment/immediately') {
        info = makeInfo({ unpaidBills: [[line(3, '2026-11-03T14:00:00+09:00', 25_000, '영화')]] });
        return json({ success: true, message: '즉시 납부 신청되었습니다.', data: {} });
      }
      return json({ success: false, code: 'NOT_FOUND', message: 'x' }, 404);
    }),
  );
  // happy-dom's <dialog> lacks showModal in some versions.
  HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});
afterEach(() => vi.unstubAllGlobals());

function renderPage(client = new QueryClient({ defaultOptions: { queries: { retry: false } } })) {
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <PaymentPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('/payment page', () => {
  it('shows the available amount, one upcoming card per statement and locks current-month lines', async () => {
    renderPage();
    expect(await screen.findByTestId('available-amount')).toHaveTextContent('75,000원');
    const october = screen.getByTestId('due-2026-10');
    expect(october).toHaveTextContent('11월 납부 예정 금액');
    expect(october).toHaveTextContent('20,000원');
    expect(october).toHaveTextContent('납부일 11월 15일');
    expect(october).toHaveTextContent('D-3');
    expect(screen.getByTestId('due-2026-11')).toHaveTextContent('12월 납부 예정 금액');
    expect(await screen.findByLabelText('카페라떼 12,000원 선택')).toBeEnabled();
    expect(screen.getByLabelText('영화 25,000원 선택')).toBeDisabled();
    // Locked lines say why, in words tied to the checkbox.
    expect(screen.getByLabelText('영화 25,000원 선택')).toHaveAccessibleDescription(
      '이전 달 이용분을 모두 납부하면 선택할 수 있어요.',
    );
    expect(screen.getAllByTestId('locked-reason')).toHaveLength(1);
  });

  it('shows the unpaid list in an idle moment after the cards above it, not with them', async () => {
    const idle = idleMomentsByHand();
    try {
      renderPage();
      expect(await screen.findByTestId('available-amount')).toHaveTextContent('75,000원');
      // The answer is on screen, and nothing of the list is rendered yet.
      expect(screen.queryByRole('heading', { name: '미납 내역' })).toBeNull();
      expect(screen.queryByLabelText('카페라떼 12,000원 선택')).toBeNull();
      // One job per idle moment, in the order queued (another part may have queued one before it).
      for (let moment = 0; moment < 5 && !screen.queryByRole('heading', { name: '미납 내역' }); moment++) {
        await idle.next();
      }
      // Its code may still be on the way (a chunk of its own): it shows once that is in.
      expect(await screen.findByRole('heading', { name: '미납 내역' })).toBeInTheDocument();
      expect(screen.getByLabelText('카페라떼 12,000원 선택')).toBeEnabled();
    } finally {
      await idle.release();
    }
  });

  it('shows a failed load of the unpaid list’s code in its place, with a retry, and keeps the page', async () => {
    // A page module of its own, whose list chunk fails to load (a network error on the way).
    vi.resetModules();
    vi.doMock('../components/unpaid-list', () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    try {
      const { default: FreshPaymentPage } = await import('./payment-page');
      render(
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter>
            <FreshPaymentPage />
          </MemoryRouter>
        </QueryClientProvider>,
      );
      expect(await screen.findByTestId('available-amount')).toHaveTextContent('75,000원');
      const failed = await screen.findByRole('alert');
      expect(within(failed).getByRole('button', { name: /다시 시도/ })).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: '미납 내역' })).toBeNull();
      // The rest of the page stays usable.
      expect(screen.getByRole('button', { name: '즉시 납부' })).toBeEnabled();
    } finally {
      vi.doUnmock('../components/unpaid-list');
    }
  });

  it('keeps its skeleton until the autopay setting answers too, so the card never pushes the statements down', async () => {
    let answer = () => {};
    autopayAnswered = new Promise<void>((resolve) => (answer = resolve));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    renderPage(client);
    // The autopay request went out beside the page's own, not after their answers.
    await waitFor(() => expect(calls.map((c) => c.url)).toContain('/api/payment/statements'));
    expect(calls.map((c) => c.url)).toContain('/api/payment/autopay');
    // The page's own answers are in, and still only the skeleton shows.
    await waitFor(() =>
      expect(client.getQueryCache().findAll({ predicate: (q) => q.state.status === 'success' })).toHaveLength(2),
    );
    expect(screen.getByTestId('page-skeleton')).toBeInTheDocument();
    expect(screen.queryByTestId('due-2026-10')).toBeNull();
    answer();
    // The card comes with its full height in the same render as the statements under it.
    expect(await screen.findByTestId('due-2026-10')).toBeInTheDocument();
    expect(screen.getByTestId('autopay-card')).toHaveTextContent('자동 납부 (대기 중)');
    expect(screen.queryByText('자동 납부 설정을 불러오는 중...')).toBeNull();
  });

  it("shows the page when the autopay setting fails, with the card's retry, and does not ask again and again", async () => {
    // The endpoint answers 404 here (autopayAnswered unset).
    renderPage();
    expect(await screen.findByText(/자동 납부 설정을 불러오지 못했어요/)).toBeInTheDocument();
    expect(screen.getByTestId('due-2026-10')).toBeInTheDocument();
    // Once for the page, once more when the card mounts over a failed answer: not a loop of skeleton and card.
    await waitFor(() => expect(screen.queryByTestId('page-skeleton')).toBeNull());
    expect(calls.filter((c) => c.url === '/api/payment/autopay').length).toBeLessThanOrEqual(2);
  });

  it('tells of a limit change by risk on the available card, in the notice’s words', async () => {
    status = { ...normalStatus, limitChange: { from: 100_000, to: 50_000, at: '2026-11-10T14:20:00+09:00' } };
    info = makeInfo({ limitPrice: 50_000, balance: 25_000 });
    renderPage();
    const card = (await screen.findByTestId('available-amount')).closest('section');
    expect(card).not.toBeNull();
    const told = within(card as HTMLElement).getByTestId('limit-change');
    expect(told).toHaveTextContent('월 한도가 100,000원에서 50,000원으로 조정됐어요.');
    expect(within(told).getByText('11월 10일')).toHaveAttribute('datetime', '2026-11-10T14:20:00+09:00');
    expect(card).toHaveTextContent('월 한도 50,000원');
  });

  it('shows no limit-change line when nothing changed', async () => {
    renderPage();
    await screen.findByTestId('available-amount');
    expect(screen.queryByTestId('limit-change')).toBeNull();
  });

  it('select-all covers only the selectable lines; nothing selected → the spec message', async () => {
    const user = userEvent.setup();
    renderPage();
    await screen.findByTestId('available-amount');
    await user.click(screen.getByRole('button', { name: '즉시 납부' }));
    expect(alerts).toEqual(['선택된 결제 내역이 없습니다.']);
    await user.click(screen.getByLabelText('전체 선택'));
    expect(screen.getByLabelText('카페라떼 12,000원 선택')).toBeChecked();
    expect(screen.getByLabelText('택시 8,000원 선택')).toBeChecked();
    expect(screen.getByLabelText('영화 25,000원 선택')).not.toBeChecked();
    expect(screen.getByText(/선택 2건/)).toHaveTextContent('20,000원');
  });

  it('pays the selected lines after the modal and shows the new state', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByLabelText('카페라떼 12,000원 선택'));
    await user.click(screen.getByLabelText('택시 8,000원 선택'));
    await user.click(screen.getByRole('button', { name: '즉시 납부' }));
    const dialog = await screen.findByRole('dialog', { name: '즉시 납부' });
    expect(dialog).toHaveTextContent('출금 계좌 토스뱅크 ****8901');
    await user.click(within(dialog).getByRole('button', { name: '20,000원 납부하기' }));
    expect(await screen.findByText('즉시 납부 신청되었습니다.')).toBeInTheDocument();
    const post = calls.find((c) => c.url === '/api/payment/immediately');
    expect(post?.body).toEqual([1, 2]);
    // The list was refetched: October is gone and the current month is unlocked.
    await waitFor(() => expect(screen.queryByLabelText('카페라떼 12,000원 선택')).toBeNull());
    expect(screen.getByLabelText('영화 25,000원 선택')).toBeEnabled();
  });

  it('says autopay is debiting the lines when an early payment meets it, and pays nothing', async () => {
    autopayCollecting = true;
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByLabelText('카페라떼 12,000원 선택'));
    await user.click(screen.getByRole('button', { name: '즉시 납부' }));
    const dialog = await screen.findByRole('dialog', { name: '즉시 납부' });
    await user.click(within(dialog).getByRole('button', { name: '12,000원 납부하기' }));
    await waitFor(() => expect(toastLog).toEqual([BILL_MSG.autopayInProgress]));
    expect(screen.getByLabelText('카페라떼 12,000원 선택')).toBeInTheDocument();
  });

  it('extends through its modal; a second request says it is already extended', async () => {
    const user = userEvent.setup();
    renderPage();
    await screen.findByTestId('available-amount');
    await user.click(screen.getByRole('button', { name: '연장 신청' }));
    const dialog = await screen.findByRole('dialog', { name: '납부 연장 신청' });
    expect(dialog).toHaveTextContent('11월 15일에서 11월 말일로');
    await user.click(within(dialog).getByRole('button', { name: '연장 신청하기' }));
    expect(await screen.findByText('연장 신청되었습니다.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '확인' }));
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/payment/info')).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: '연장 신청' }));
    expect(alerts).toEqual(['이미 연장 신청되었습니다.']);
  });

  it('tells a suspended customer why and how much to repay; overdue bills count days past due', async () => {
    status = {
      today: '2027-01-03',
      suspended: true,
      suspensionReason: 'OVERDUE',
      overdueAmount: 20_000,
      statements: [
        { month: '2026-11', dueDate: '2026-12-31', extension: 'AUTO', status: 'OVERDUE', amount: 20_000, count: 2 },
        { month: '2027-01', dueDate: '2027-02-15', extension: null, status: 'OPEN', amount: 25_000, count: 1 },
      ],
      limitChange: null,
    };
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('결제가 정지되었어요');
    expect(alert).toHaveTextContent('11월 이용분');
    expect(alert).toHaveTextContent('20,000원을 납부하면 바로 해제돼요');
    const overdue = screen.getByTestId('due-2026-11');
    expect(overdue).toHaveTextContent('연체');
    expect(overdue).toHaveTextContent('납부일 12월 말일');
    expect(overdue).toHaveTextContent('D+3');
  });

  it('tells a customer an operator suspended that it is not about a bill, and where to ask', async () => {
    status = { ...normalStatus, suspended: true, suspensionReason: 'STAFF' };
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('결제가 잠시 정지되었어요');
    expect(alert).toHaveTextContent('고객센터로 문의해 주세요');
    expect(alert).not.toHaveTextContent('연체');
    expect(alert).not.toHaveTextContent('납부하면');
  });

  it('refuses to extend when only the current month is unpaid', async () => {
    const user = userEvent.setup();
    info = makeInfo({ unpaidBills: [[line(3, '2026-11-03T14:00:00+09:00', 25_000)]] });
    renderPage();
    await screen.findByTestId('available-amount');
    await user.click(screen.getByRole('button', { name: '연장 신청' }));
    expect(alerts).toEqual(['연장 신청이 불가능 합니다. 아직 청구되지 않은 이번 달 이용분은 연장할 수 없어요.']);
  });
});
