import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mypageKeys } from '../../features/mypage/api/mypage-api';
import { setToken } from '../../shared/auth-token';
import { pendingAutopay } from '../../test/autopay-fixtures';
import MypageRoute from './mypage-route';

// Idle moments come when the test says: the jobs queued for one wait here until `idle()` runs them.
const idleJobs = vi.hoisted(() => [] as Array<() => void>);
vi.mock('../../shared/idle-queue', () => ({
  runWhenIdle: (job: () => void) => {
    idleJobs.push(job);
    return () => {
      const at = idleJobs.indexOf(job);
      if (at >= 0) idleJobs.splice(at, 1);
    };
  },
}));
/** One idle moment: every job queued so far runs. */
const idle = () =>
  act(() => {
    for (const job of idleJobs.splice(0)) job();
  });

const me = {
  name: '김오굿',
  emailId: 'demo@ohgood.kr',
  gradeName: 'silver',
  pointPercent: 1,
  gradePoint: 40,
  account: '12345678901',
  accountName: '국민',
  point: 1_200,
};

function reply(body: unknown) {
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
}

let answerAutopay: () => void;
/** The autopay setting's endpoint fails instead of answering. */
let autopayFails = false;
const calls: string[] = [];

beforeEach(() => {
  idleJobs.length = 0;
  setToken('token');
  calls.length = 0;
  autopayFails = false;
  const autopayAnswered = new Promise<void>((resolve) => {
    answerAutopay = resolve;
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(url);
      if (url.endsWith('/api/payment/autopay') && autopayFails)
        return new Response(JSON.stringify({ success: false, code: 'INTERNAL', message: 'x' }), { status: 500 });
      if (url.endsWith('/api/payment/autopay'))
        return autopayAnswered.then(() => reply({ success: true, message: 'OK', data: pendingAutopay }));
      // My page's answer is its bare fields.
      if (url.endsWith('/api/mypage')) return reply(me);
      return reply(null);
    }),
  );
});

function renderRoute(client = new QueryClient({ defaultOptions: { queries: { retry: false } } })) {
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <MypageRoute />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('/mypage composed', () => {
  it('keeps the skeleton until the autopay card can take its place, then shows the page with the card in it', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    renderRoute(client);
    // Both answers are asked for at once; my page's own came back, the autopay card's has not.
    await waitFor(() => expect(client.getQueryState(mypageKeys.summary)?.status).toBe('success'));
    expect(calls.some((url) => url.endsWith('/api/payment/autopay'))).toBe(true);
    expect(screen.getByText('내 정보를 불러오는 중...')).toBeInTheDocument();
    expect(screen.queryByText('님, 안녕하세요!', { exact: false })).not.toBeInTheDocument();

    answerAutopay();
    expect(await screen.findByTestId('grade-card')).toBeInTheDocument();
    await idle();
    expect(screen.getByTestId('autopay-card')).toBeInTheDocument();
    expect(screen.getByTestId('point-balance')).toHaveTextContent('1,200');
    expect(screen.queryByText('내 정보를 불러오는 중...')).not.toBeInTheDocument();
  });

  it('shows the top cards with the answers and the autopay and points cards in the next idle moment', async () => {
    answerAutopay();
    renderRoute();
    expect(await screen.findByTestId('grade-card')).toBeInTheDocument();
    expect(screen.getByText('연결 계좌')).toBeInTheDocument();
    // Their place is held by their skeleton, which says what is still loading.
    expect(screen.queryByTestId('autopay-card')).not.toBeInTheDocument();
    expect(screen.queryByTestId('point-balance')).not.toBeInTheDocument();
    expect(screen.getByTestId('page-skeleton')).toHaveAttribute('aria-busy', 'true');

    await idle();
    expect(screen.getByTestId('autopay-card')).toBeInTheDocument();
    expect(screen.getByTestId('point-balance')).toHaveTextContent('1,200');
    expect(screen.queryByTestId('page-skeleton')).not.toBeInTheDocument();
  });

  it("shows the page when the autopay setting fails, with the card's retry, and does not ask again and again", async () => {
    autopayFails = true;
    renderRoute();
    expect(await screen.findByTestId('grade-card')).toBeInTheDocument();
    await idle();
    expect(await screen.findByText(/자동 납부 설정을 불러오지 못했어요/)).toBeInTheDocument();
    // The card's own request over the failed answer has failed too, and idle moments pass: the page stays.
    await waitFor(() => expect(calls.filter((url) => url.endsWith('/api/payment/autopay')).length).toBe(2));
    await idle();
    await idle();
    expect(screen.getByText(/자동 납부 설정을 불러오지 못했어요/)).toBeInTheDocument();
    // Once for the page, once more when the card mounts over the failed answer: not a loop of skeleton and card.
    expect(screen.getByTestId('grade-card')).toBeInTheDocument();
    expect(calls.filter((url) => url.endsWith('/api/payment/autopay')).length).toBeLessThanOrEqual(2);
  });
});
