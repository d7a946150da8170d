import type { AutopaySetting } from '@ohgood/contract/autopay';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mypageKeys } from '../../features/mypage/api/mypage-api';
import { setToken } from '../../shared/auth-token';
import MypageRoute from './mypage-route';

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

const autopay: AutopaySetting = {
  autopay: true,
  account: '123-****-901',
  accountName: '국민',
  state: 'pending',
  pendingReason: 'consent',
  verified: false,
  consentVersion: null,
  verification: null,
};

function reply(body: unknown) {
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
}

let answerAutopay: () => void;
const calls: string[] = [];

beforeEach(() => {
  setToken('token');
  calls.length = 0;
  const autopayAnswered = new Promise<void>((resolve) => {
    answerAutopay = resolve;
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(url);
      if (url.endsWith('/api/payment/autopay'))
        return autopayAnswered.then(() => reply({ success: true, message: 'OK', data: autopay }));
      // My page's answer is its bare fields.
      if (url.endsWith('/api/mypage')) return reply(me);
      return reply(null);
    }),
  );
});

describe('/mypage composed', () => {
  it('keeps the skeleton until the autopay card can take its place, then shows the page with the card in it', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <MypageRoute />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    // Both answers are asked for at once; my page's own came back, the autopay card's has not.
    await waitFor(() => expect(client.getQueryState(mypageKeys.summary)?.status).toBe('success'));
    expect(calls.some((url) => url.endsWith('/api/payment/autopay'))).toBe(true);
    expect(screen.getByText('내 정보를 불러오는 중...')).toBeInTheDocument();
    expect(screen.queryByText('님, 안녕하세요!', { exact: false })).not.toBeInTheDocument();

    answerAutopay();
    expect(await screen.findByTestId('autopay-card')).toBeInTheDocument();
    expect(screen.getByTestId('grade-card')).toBeInTheDocument();
    expect(screen.getByTestId('point-balance')).toHaveTextContent('1,200');
    expect(screen.queryByText('내 정보를 불러오는 중...')).not.toBeInTheDocument();
  });
});
