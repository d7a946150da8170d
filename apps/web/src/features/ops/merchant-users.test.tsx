import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Call, stubFetch } from '../../test/stub-fetch';
import { createConsoleQueryClient } from './api/query-client';
import { opsToken } from './api/staff-api';
import { MerchantUsers } from './pages/merchant-users';

/** A merchant's portal users in the console: the list, a new user's one-time link, ending sessions. */

let calls: Call[] = [];
const posts = () => calls.filter((c) => c.method === 'POST');
const user = (openSessions: number) => ({
  merchantUserId: 8,
  email: 'owner@shop.example.com',
  name: '김사장',
  enrolled: true,
  disabled: false,
  openSessions,
});

beforeEach(() => {
  calls = [];
  opsToken.set('staff-token');
});
afterEach(() => vi.unstubAllGlobals());

describe('merchant users', () => {
  it('adds a user with a reason and shows the enrolment link once', async () => {
    const actor = userEvent.setup();
    let items: unknown[] = [];
    stubFetch(
      {
        'GET /api/ops/merchants/3/users': () => ({ items }),
        'POST /api/ops/merchants/3/users': () => {
          items = [user(0)];
          return { merchantUserId: 8, enrolmentUrl: '/merchant/portal/enrol/abcdefghijklmnopqrstuvwxyz012345' };
        },
      },
      calls,
    );
    render(
      <QueryClientProvider client={createConsoleQueryClient()}>
        <MerchantUsers merchantId={3} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('포털 사용자가 없습니다.')).toBeInTheDocument();
    await actor.click(screen.getByRole('button', { name: '사용자 추가' }));
    await actor.type(screen.getByLabelText('이메일'), 'owner@shop.example.com');
    await actor.type(screen.getByLabelText('이름'), '김사장');
    await actor.type(screen.getByLabelText(/사유/), '가맹점 요청');
    await actor.click(screen.getByRole('button', { name: '다음' }));
    await actor.click(screen.getByRole('button', { name: '실행' }));
    expect(
      await screen.findByText(`${window.location.origin}/merchant/portal/enrol/abcdefghijklmnopqrstuvwxyz012345`),
    ).toBeInTheDocument();
    expect(posts()).toEqual([
      {
        method: 'POST',
        path: '/api/ops/merchants/3/users',
        body: { email: 'owner@shop.example.com', name: '김사장', reason: '가맹점 요청' },
      },
    ]);
    expect(await screen.findByText('owner@shop.example.com')).toBeInTheDocument();
    await actor.click(screen.getByRole('button', { name: '닫기' }));
    expect(screen.queryByLabelText('등록 링크')).not.toBeInTheDocument();
  });

  it('ends a user’s sessions with a reason', async () => {
    const actor = userEvent.setup();
    stubFetch(
      {
        'GET /api/ops/merchants/3/users': () => ({ items: [user(2)] }),
        'POST /api/ops/merchant-users/8/end-sessions': () => ({ ok: true }),
      },
      calls,
    );
    render(
      <QueryClientProvider client={createConsoleQueryClient()}>
        <MerchantUsers merchantId={3} />
      </QueryClientProvider>,
    );
    await actor.click(await screen.findByRole('button', { name: '세션 종료' }));
    await actor.type(screen.getByLabelText(/사유/), '기기 분실');
    await actor.click(screen.getByRole('button', { name: '다음' }));
    await actor.click(screen.getByRole('button', { name: '실행' }));
    await waitFor(() =>
      expect(posts()).toEqual([
        { method: 'POST', path: '/api/ops/merchant-users/8/end-sessions', body: { reason: '기기 분실' } },
      ]),
    );
  });
});
